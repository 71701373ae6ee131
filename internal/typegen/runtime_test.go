package typegen_test

import (
	"os"
	"testing"

	"github.com/toolc-dev/toolc/gen/tools"
	"github.com/toolc-dev/toolc/toolcall"
)

// TestGeneratedDecode runs the example catalog's generated Decode (go
// target, runtime = true): a model's call for OpenAI's strict target, with
// null for an optional property left out, comes back as the tool's input
// struct, the null gone and the enum a typed constant.
func TestGeneratedDecode(t *testing.T) {
	cat, err := toolcall.Load(os.DirFS("../.."), "toolc.lock")
	if err != nil {
		t.Fatal(err)
	}
	args, err := os.ReadFile("../../examples/calls/cancel_order.openai-strict.json")
	if err != nil {
		t.Fatal(err)
	}
	in, call, err := tools.Decode(cat, "openai-strict", tools.ToolCrmCancelOrder, args)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := in.(*tools.CrmCancelOrderInput)
	if !ok || call.ID != "crm:cancel_order" || got.OrderId != "ord_1042" || got.Reason != tools.CrmCancelOrderInputReasonCustomerRequest || got.NotifyCustomer != nil {
		t.Errorf("Decode = %#v (%T), call %s", in, in, call.ID)
	}
	if _, _, err := tools.Decode(cat, "openai-strict", tools.ToolCrmCancelOrder, []byte(`{"order_id": "ord_1", "reason": "bored", "notify_customer": null}`)); err == nil {
		t.Error("Decode took a reason outside the enum")
	}
}
