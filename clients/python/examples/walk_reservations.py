"""Every confirmed reservation, page after page, with the async client.

INNKEEP_API_KEY=hk_… python examples/walk_reservations.py
"""

import asyncio
import os

from innkeep import AsyncInnkeep


async def main() -> None:
    async with AsyncInnkeep(api_key=os.environ["INNKEEP_API_KEY"], base_url=os.environ.get("INNKEEP_BASE_URL")) as client:
        count = 0
        async for reservation in client.reservations.list(status="confirmed", limit=100):
            count += 1
            print(reservation.id, reservation.check_in, reservation.guest.last_name)
        print(f"{count} confirmed reservations")


asyncio.run(main())
