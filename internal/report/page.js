// The report page of toolc: a matrix of tools by targets, virtually
// scrolled, filtered and sorted in place; a tool's page with its schemas.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var detail = null; // parsed on the first tool opened
  var ROW = 28, LETTER = { a: "as-is", l: "lowered", x: "lossy", r: "refused", "-": "" };
  var LABEL = { a: "as is", l: "lowered", x: "lossy", r: "refused", "-": "–" };
  var T = D.targets, tools = D.tools, shown = [], sortKey = -1, sortDir = 1;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function num(n) { return n.toLocaleString("en-US"); }

  $("title").textContent = "toolc report" + (D.catalog ? ": " + D.catalog + (D.version ? " " + D.version : "") : "");
  $("summary").textContent = D.summary;

  // The targets' table.
  var head = $("targets").tHead.insertRow();
  ["target", "format", "tools", "tokens", "as is", "lowered", "lossy", "refused", "errors", "warnings"].forEach(function (h, i) {
    head.appendChild(el("th", i < 2 ? { style: "text-align:left" } : {}, h));
  });
  var methods = {};
  T.forEach(function (t) {
    var r = $("targets").tBodies[0].insertRow();
    r.setAttribute("data-target", t.name);
    var tok = t.counted ? (t.exact ? "" : "≈ ") + num(t.tokens) : "–";
    [t.name, t.format, num(t.tools), tok].forEach(function (v, i) { r.appendChild(el("td", i < 2 ? { "class": "left" } : {}, v)); });
    D.statuses.forEach(function (s) {
      // A bundle the provider refuses as a whole (too many tools for one
      // request) is refused, whatever each tool's status says.
      if (s === "refused" && t.refusals) {
        var td = el("td", { "data-status": s, "class": "refused-bundle", title: t.refusals.join("\n") }, "the bundle");
        r.appendChild(td);
        return;
      }
      r.appendChild(el("td", { "data-status": s }, num(t.status[s] || 0)));
    });
    r.appendChild(el("td", { "data-errors": "" }, num(t.errors)));
    r.appendChild(el("td", { "data-warnings": "" }, num(t.warnings)));
    if (t.counted) (methods[t.tokenMethod] = methods[t.tokenMethod] || []).push(t.name);
  });
  $("methods").textContent = Object.keys(methods).map(function (m) {
    return "Tokens of " + methods[m].join(", ") + ": " + m + ".";
  }).join(" ");

  // Filters.
  function fill(id, values, label) {
    values.forEach(function (v, i) { $(id).appendChild(el("option", { value: label ? v : i }, label ? label(v) : v)); });
  }
  fill("f-ns", D.namespaces, function (v) { return v || "(none)"; });
  fill("f-target", T.map(function (t) { return t.name; }), function (v) { return v; });
  fill("f-status", ["a", "l", "x", "r"], function (v) { return LABEL[v]; });
  fill("f-code", D.codes);
  ["f-ns", "f-target", "f-status", "f-code", "f-text"].forEach(function (id) {
    $(id).addEventListener("input", apply);
  });

  // The matrix: a grid row per tool, only the visible ones in the page.
  document.documentElement.style.setProperty("--cols", "minmax(16rem, 2fr) " + T.map(function () { return "minmax(7rem, 1fr)"; }).join(" "));
  var hrow = $("head");
  hrow.appendChild(el("span", { "data-sort": -1, title: "sort by ID" }, "tool"));
  T.forEach(function (t, j) { hrow.appendChild(el("span", { "data-sort": j, title: "sort by tokens" }, t.name)); });
  hrow.addEventListener("click", function (e) {
    var k = e.target.getAttribute("data-sort");
    if (k == null) return;
    k = +k;
    sortDir = k === sortKey ? -sortDir : (k < 0 ? 1 : -1);
    sortKey = k;
    apply();
  });

  function apply() {
    var ns = $("f-ns").value, tgt = $("f-target").value, st = $("f-status").value,
      code = $("f-code").value, text = $("f-text").value.toLowerCase();
    var ti = tgt === "" ? -1 : T.findIndex(function (t) { return t.name === tgt; });
    shown = [];
    for (var i = 0; i < tools.length; i++) {
      var t = tools[i];
      if (ns !== "" && t[1] !== ns) continue;
      if (text && t[0].toLowerCase().indexOf(text) < 0) continue;
      if (code !== "" && t[4].indexOf(+code) < 0) continue;
      if (ti >= 0 && t[2][ti] === "-") continue;
      if (st && (ti >= 0 ? t[2][ti] !== st : t[2].indexOf(st) < 0)) continue;
      shown.push(i);
    }
    if (sortKey >= 0) {
      shown.sort(function (a, b) { return sortDir * (tools[a][3][sortKey] - tools[b][3][sortKey]) || (a - b); });
    } else if (sortDir < 0) {
      shown.reverse();
    }
    $("shown").textContent = num(shown.length) + " of " + num(tools.length) + " tools";
    $("shown").setAttribute("data-shown", shown.length);
    $("rows").style.height = shown.length * ROW + "px";
    $("scroller").scrollTop = 0;
    draw();
  }

  function draw() {
    var sc = $("scroller"), rows = $("rows");
    var first = Math.max(0, Math.floor(sc.scrollTop / ROW) - 10);
    var last = Math.min(shown.length, Math.ceil((sc.scrollTop + sc.clientHeight) / ROW) + 10);
    rows.textContent = "";
    for (var k = first; k < last; k++) {
      var i = shown[k], t = tools[i];
      var r = el("div", { "class": "row item", role: "row", "data-tool": t[0] });
      r.style.top = k * ROW + "px";
      r.appendChild(el("span", { title: t[0] }, t[0]));
      for (var j = 0; j < T.length; j++) {
        var c = el("span"), s = t[2][j];
        c.appendChild(el("span", { "class": "st " + (s === "-" ? "n" : s), "data-status": LETTER[s] }, LABEL[s]));
        if (s !== "-" && T[j].counted) c.appendChild(el("span", { "class": "tok" }, num(t[3][j])));
        r.appendChild(c);
      }
      rows.appendChild(r);
    }
  }
  $("scroller").addEventListener("scroll", function () { window.requestAnimationFrame(draw); });
  $("rows").addEventListener("click", function (e) {
    var r = e.target.closest(".row");
    if (r) location.hash = "tool=" + encodeURIComponent(r.getAttribute("data-tool"));
  });

  // A tool's page.
  function flatten(v, p, out) {
    out[p] = v !== null && typeof v === "object" ? (Array.isArray(v) ? "[]" : "{}") : JSON.stringify(v);
    if (v !== null && typeof v === "object") {
      for (var k in v) flatten(v[k], p + "/" + String(k).replace(/~/g, "~0").replace(/\//g, "~1"), out);
    }
    return out;
  }
  // render writes a schema as indented JSON, a line per value, marking
  // each line whose pointer is in marks with that mark's class.
  function render(v, marks, notes) {
    var pre = el("pre");
    function line(indent, text, p) {
      var s = el("span", { "data-pointer": p }, indent + text + "\n");
      if (marks[p]) s.className = marks[p];
      if (notes[p]) {
        s.className += " find";
        s.title = notes[p].join("\n");
        s.insertBefore(el("span", { "class": "mark" }, "● "), s.firstChild);
      }
      pre.appendChild(s);
    }
    function walk(v, p, indent, key, comma) {
      var lead = key == null ? "" : JSON.stringify(key) + ": ";
      if (v !== null && typeof v === "object") {
        var arr = Array.isArray(v), keys = Object.keys(v);
        if (!keys.length) return line(indent, lead + (arr ? "[]" : "{}") + comma, p);
        line(indent, lead + (arr ? "[" : "{"), p);
        keys.forEach(function (k, i) {
          walk(v[k], p + "/" + String(k).replace(/~/g, "~0").replace(/\//g, "~1"), indent + "  ", arr ? null : k, i < keys.length - 1 ? "," : "");
        });
        return line(indent, (arr ? "]" : "}") + comma, p);
      }
      line(indent, lead + JSON.stringify(v) + comma, p);
    }
    walk(v, "", "", null, "");
    return pre;
  }
  function notesOf(findings) {
    var n = {};
    (findings || []).forEach(function (f) {
      var ptr = f.pointer || "";
      if (ptr.indexOf("/input") !== 0) return;
      var p = ptr.slice(6);
      (n[p] = n[p] || []).push(f.code + ": " + f.message);
    });
    return n;
  }
  function list(findings) {
    var ul = el("ul", { "class": "findings" });
    (findings || []).forEach(function (f) {
      var li = el("li", { "class": f.severity }, "");
      li.appendChild(el("code", {}, f.code));
      li.appendChild(document.createTextNode(" " + f.message + (f.pointer ? " (at " + f.pointer + ")" : "")));
      ul.appendChild(li);
    });
    return ul;
  }
  function open(id) {
    var i = tools.findIndex(function (t) { return t[0] === id; });
    if (i < 0) return close();
    if (!detail) detail = JSON.parse($("detail").textContent);
    var t = tools[i], d = detail[i], sec = $("tool");
    sec.textContent = "";
    var back = el("button", { type: "button", id: "back" }, "← all tools");
    back.onclick = function () { location.hash = ""; };
    sec.appendChild(back);
    sec.appendChild(el("h2", {}, t[0]));
    if (d.description) sec.appendChild(el("p", { "class": "desc" }, d.description));
    sec.appendChild(el("p", {}, "from " + d.source));
    if (d.findings && d.findings.length) sec.appendChild(list(d.findings));
    var input = d.input ? JSON.parse(d.input) : {};
    var inFlat = flatten(input, "", {});
    T.forEach(function (tg, j) {
      var c = d.cells[j], s = t[2][j];
      var h = el("h3", { "data-target": tg.name }, tg.name + " ");
      h.appendChild(el("span", { "class": "st " + (s === "-" ? "n" : s) }, LABEL[s]));
      sec.appendChild(h);
      if (s === "-") { sec.appendChild(el("p", {}, "This target's select leaves the tool out.")); return; }
      sec.appendChild(el("p", {}, "emitted as " + c.name + (tg.counted ? ", " + num(t[3][j]) + " tokens" + (tg.exact ? "" : " (estimated)") : "")));
      if (c.findings) sec.appendChild(list(c.findings));
      var notes = notesOf(c.findings);
      var pair = el("div", { "class": "pair" });
      var outv = c.schema ? JSON.parse(c.schema) : input;
      var outFlat = c.schema ? flatten(outv, "", {}) : inFlat;
      var left = {}, right = {};
      for (var p in inFlat) if (!(p in outFlat)) left[p] = "del";
      for (var q in outFlat) if (!(q in inFlat)) right[q] = "add"; else if (outFlat[q] !== inFlat[q]) { right[q] = "add"; left[q] = "del"; }
      var l = el("div"), r = el("div");
      l.appendChild(el("div", {}, "catalog"));
      l.appendChild(render(input, left, notes));
      r.appendChild(el("div", {}, c.schema ? "emitted" : "emitted (the same)"));
      r.appendChild(render(outv, right, {}));
      pair.appendChild(l);
      pair.appendChild(r);
      sec.appendChild(pair);
    });
    $("all").hidden = true;
    sec.hidden = false;
    window.scrollTo(0, 0);
  }
  function close() {
    $("tool").hidden = true;
    $("all").hidden = false;
    draw();
  }
  function route() {
    var m = /^#tool=(.*)$/.exec(location.hash);
    if (m) open(decodeURIComponent(m[1])); else close();
  }
  window.addEventListener("hashchange", route);
  apply();
  route();
  document.body.setAttribute("data-ready", "true");
})();
