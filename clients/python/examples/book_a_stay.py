"""Find availability, book a stay and take a cash payment, in the sandbox (nothing here touches
the live hotel: no real booking, no real money).

INNKEEP_API_KEY=hk_… INNKEEP_BASE_URL=http://localhost:3000 python examples/book_a_stay.py
"""

import datetime
import os

from innkeep import ConflictError, Innkeep

with Innkeep(
    api_key=os.environ["INNKEEP_API_KEY"], base_url=os.environ.get("INNKEEP_BASE_URL"), environment="sandbox"
) as client:
    prop = client.properties.list(limit=1).data[0]
    check_in = datetime.date.today() + datetime.timedelta(days=14)
    check_out = check_in + datetime.timedelta(days=2)
    availability = client.availability.retrieve(property_id=prop.id, check_in=check_in, check_out=check_out, adults=2)
    print(availability.model_dump_json(indent=2)[:400])
    room_type = client.room_types.list(property_id=prop.id, limit=1).data[0]
    rate_plan = client.rate_plans.list(property_id=prop.id, limit=1).data[0]
    try:
        stay = client.reservations.create(
            property_id=prop.id,
            guest={"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com"},
            check_in=check_in,
            check_out=check_out,
            room_type_id=room_type.id,
            rate_plan_id=rate_plan.id,
            adults=2,
        )
    except ConflictError as error:
        raise SystemExit(f"Not bookable: {error.code} ({error.message})")
    payment = client.payments.create(reservation_id=stay.id, payment_method={"type": "cash"})
    print(f"Booked {stay.id} for {stay.nights} nights; payment {payment.id} is {payment.status}.")
