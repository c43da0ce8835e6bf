"""A camera that pushes MJPEG over HTTP, like many IP cameras: `python mjpeg_server.py PORT`."""

import http.server
import socketserver
import sys
import time

import cv2
import numpy as np


class Camera(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        index = 0
        try:
            while True:
                image = np.full((120, 160, 3), index % 255, np.uint8)
                _, jpeg = cv2.imencode(".jpg", image)
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg))
                self.wfile.write(jpeg.tobytes() + b"\r\n")
                index += 1
                time.sleep(1 / 30)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", int(sys.argv[1])), Camera) as server:
        server.serve_forever()
