package typegen

// GofmtChanges is gofmtChanges, for the fuzz oracle of package typegen_test.
var GofmtChanges = gofmtChanges
