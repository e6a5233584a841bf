// Book a stay in the sandbox hotel, pay a held deposit by card and the rest in cash, and walk
// every confirmed reservation.
// INNKEEP_API_KEY=hk_… INNKEEP_BASE_URL=http://localhost:3000 go run ./examples/book-a-stay
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/innkeep/innkeep-go"
)

func main() {
	ctx := context.Background()
	client := innkeep.NewClient(os.Getenv("INNKEEP_API_KEY"), innkeep.WithBaseURL(os.Getenv("INNKEEP_BASE_URL")), innkeep.WithEnvironment("sandbox"))
	props, err := client.Properties.List(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	property := props.Data[0].Id
	roomTypes, _ := client.RoomTypes.List(ctx, &innkeep.ListRoomTypesParams{PropertyId: &property})
	ratePlans, _ := client.RatePlans.List(ctx, &innkeep.ListRatePlansParams{PropertyId: &property})
	now := time.Now()
	checkIn := innkeep.NewDate(now.Year(), now.Month(), now.Day()).AddDays(14)
	body := &innkeep.CreateReservationJSONRequestBody{
		PropertyId: property, RoomTypeId: roomTypes.Data[0].Id, RatePlanId: ratePlans.Data[0].Id,
		CheckIn: checkIn, CheckOut: checkIn.AddDays(2), Adults: 2,
	}
	email := "ada@example.com"
	body.Guest.FirstName, body.Guest.LastName, body.Guest.Email = "Ada", "Lovelace", &email
	stay, err := client.Reservations.Create(ctx, body)
	var apiErr *innkeep.Error
	if errors.As(err, &apiErr) && apiErr.Kind == innkeep.KindConflict {
		log.Fatalf("not bookable: %s", apiErr.Code)
	} else if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("booked %s: %d nights, %d %s\n", stay.Id, stay.Nights, stay.Total.Amount, stay.Total.Currency)

	// A deposit on a sandbox test card, held (capture false) and captured later. The payment
	// method is a union: fill the variant, then put it in with its From… method.
	card := innkeep.CreatePaymentJSONBodyPaymentMethod0{
		Type:     innkeep.CreatePaymentJSONBodyPaymentMethod0TypeCard,
		Number:   innkeep.Ptr("4242424242424242"), // sandbox only; live takes ProcessorPaymentMethod (pm_…)
		ExpMonth: innkeep.Ptr(12), ExpYear: innkeep.Ptr(now.Year() + 2), Cvc: innkeep.Ptr("123"),
	}
	deposit := &innkeep.CreatePaymentJSONRequestBody{ReservationId: stay.Id, Amount: innkeep.Ptr(5000), Capture: innkeep.Ptr(false)}
	if err := deposit.PaymentMethod.FromCreatePaymentJSONBodyPaymentMethod0(card); err != nil {
		log.Fatal(err)
	}
	held, err := client.Payments.Create(ctx, deposit)
	if errors.As(err, &apiErr) && apiErr.Kind == innkeep.KindCard {
		log.Fatalf("card refused (%s), payment %s", apiErr.Code, apiErr.PaymentID)
	} else if err != nil {
		log.Fatal(err)
	}
	captured, err := client.Payments.Capture(ctx, held.Id, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("deposit %s: %s, captured %v\n", captured.Id, captured.Status, captured.Captured)

	// The rest in cash (no amount: the folio's balance).
	rest := &innkeep.CreatePaymentJSONRequestBody{ReservationId: stay.Id}
	if err := rest.PaymentMethod.FromCreatePaymentJSONBodyPaymentMethod2(innkeep.CreatePaymentJSONBodyPaymentMethod2{Type: innkeep.CreatePaymentJSONBodyPaymentMethod2TypeCash}); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Payments.Create(ctx, rest); err != nil {
		log.Fatal(err)
	}
	status := innkeep.ListReservationsParamsStatus("confirmed")
	for r, err := range client.Reservations.ListAutoPaging(ctx, &innkeep.ListReservationsParams{Status: &status}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Id, r.CheckIn)
	}
}
