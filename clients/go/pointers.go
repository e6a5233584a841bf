package innkeep

// Ptr answers a pointer to v: the way to fill an optional field of the generated structs, which
// are pointers so that "not sent" (nil) differs from a zero value (0, "", false). For example
// &innkeep.CreatePaymentJSONRequestBody{ReservationId: id, Amount: innkeep.Ptr(5000), Capture: innkeep.Ptr(false)}
// sends capture false, where a nil Capture would leave the server's default (true).
func Ptr[T any](v T) *T { return &v }
