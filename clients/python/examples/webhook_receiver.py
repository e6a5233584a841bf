"""A webhook receiver on the standard library: verify the raw body, then act on the event.

INNKEEP_WEBHOOK_SECRET=whsec_… python examples/webhook_receiver.py   (listens on :4242)
"""

import os
from http.server import BaseHTTPRequestHandler, HTTPServer

import innkeep

SECRET = os.environ["INNKEEP_WEBHOOK_SECRET"]


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # the exact bytes
        try:
            event = innkeep.Webhook.construct_event(body, self.headers.get("Service-Signature"), SECRET)
        except innkeep.SignatureVerificationError as refused:
            self.send_response(401)
            self.end_headers()
            self.wfile.write(refused.reason.encode())
            return
        print(event.type, event.id, event.data.object.get("id"))
        self.send_response(204)
        self.end_headers()


HTTPServer(("", 4242), Receiver).serve_forever()
