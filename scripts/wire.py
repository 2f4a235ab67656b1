"""What the server put on the wire, and when: a packet capture of one server port on the loopback interface.

    with Wire(port) as wire:      # scripts/bench_class.py: root, Linux (AF_PACKET)
        ...                       # the class walks
    wire.first_step(conn, n)      # when the server sent connection conn the first bytes that carry lesson_step=n

Why: a page's own timestamps (CDP's Network events) are taken in its renderer, and in the class's stand-in browser
thirty renderers share two cores at nice 19, so a page hears of a frame only when its renderer next gets the CPU.
The kernel's timestamp on the packet (SO_TIMESTAMPNS) is when the server's bytes left it, whatever the browser on
the other end is doing: what the server and the network owe a student, measured without the stand-in's starvation.

Only what the benchmark needs is kept, per TCP connection (the client's port): the request line of each HTTP
request it carried and when the server answered each (its status line); on the app's websocket
(GET /_stcore/stream), its messages decoded as Streamlit's own protobufs (BackMsg from the page, ForwardMsg from the
server): when the page asked for a run (rerun_script), when a run finished (script_finished), and the first message
that carried each `lesson_step=N`. The app's websocket is not compressed (Streamlit's
server.enableWebsocketCompression is off by default), so its frames are read as sent.
"""

from __future__ import annotations

import re
import select
import socket
import struct
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ETH_P_ALL = 0x0003
SO_TIMESTAMPNS = 35  # Linux: a struct timespec (CLOCK_REALTIME) with each packet
PACKET_OUTGOING = 4  # on lo every packet is seen twice (going out, coming in): keep one copy
STEP = re.compile(rb"lesson_step=(\d+)")
FINISHED = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY


@dataclass
class Stream:
    """One direction of a websocket: bytes not yet read as whole frames, and a fragmented message's parts."""

    pending: bytes = b""
    parts: bytes = b""

    def messages(self, data: bytes) -> list[bytes]:
        """The whole messages that `data` completes (RFC 6455 framing; a page's frames are masked)."""
        self.pending += data
        done = []
        while len(self.pending) >= 2:
            b0, b1 = self.pending[0], self.pending[1]
            size, at = b1 & 0x7F, 2
            if size == 126:
                if len(self.pending) < 4:
                    break
                size, at = struct.unpack("!H", self.pending[2:4])[0], 4
            elif size == 127:
                if len(self.pending) < 10:
                    break
                size, at = struct.unpack("!Q", self.pending[2:10])[0], 10
            mask = b""
            if b1 & 0x80:
                mask, at = self.pending[at : at + 4], at + 4
            if len(self.pending) < at + size:
                break
            payload = self.pending[at : at + size]
            self.pending = self.pending[at + size :]
            if mask:
                payload = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
            opcode = b0 & 0x0F
            if opcode in (0, 1, 2):  # continuation, text, binary (pings and closes are not the app's)
                self.parts += payload
                if b0 & 0x80:
                    done.append(self.parts)
                    self.parts = b""
        return done


@dataclass
class Conn:
    """One TCP connection to the server, by the client's port."""

    requests: list[tuple[float, bytes]] = field(default_factory=list)  # (time, request line) of each HTTP request
    answers: list[tuple[float, bytes]] = field(default_factory=list)  # (time, status line), the server's answers
    websocket: bool = False  # the connection was upgraded (GET /_stcore/stream)
    upgraded: bool = False  # the server's 101 answer has gone: what follows are websocket frames
    asked: list[float] = field(default_factory=list)  # the page asked for a script run (BackMsg rerun_script)
    finished: list[float] = field(default_factory=list)  # a run finished (ForwardMsg script_finished, successfully)
    steps: dict[int, float] = field(default_factory=dict)  # the first message that carried lesson_step=N
    up: Stream = field(default_factory=Stream)  # the page's frames
    down: Stream = field(default_factory=Stream)  # the server's frames


class Wire:
    """Capture of the server's port `port` on lo in a thread, until the block ends; times in time.monotonic()."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conns: dict[int, Conn] = defaultdict(Conn)
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._sock: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Wire:
        """Open the capture (root only: AF_PACKET) and read it in a thread until the block ends."""
        self._sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        self._sock.bind(("lo", 0))
        self._sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
        # the kernel stamps in CLOCK_REALTIME; the benchmark's clock (and Chromium's) is CLOCK_MONOTONIC
        self._offset = time.time() - time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self._sock is not None:
            self._sock.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not select.select([self._sock], [], [], 0.2)[0]:
                continue
            data, anc, _flags, addr = self._sock.recvmsg(1 << 17, socket.CMSG_SPACE(16))
            if addr[2] != PACKET_OUTGOING:
                continue
            stamp = next((struct.unpack("qq", d[:16]) for lvl, typ, d in anc if typ == SO_TIMESTAMPNS), None)
            t = (stamp[0] + stamp[1] / 1e9 if stamp else time.time()) - self._offset
            self._packet(t, data)

    def _packet(self, t: float, frame: bytes) -> None:
        ip = frame[14:]  # lo's link header is an Ethernet one (zeros)
        if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != socket.IPPROTO_TCP:
            return
        tcp = ip[(ip[0] & 0x0F) * 4 :]
        sport, dport = struct.unpack("!HH", tcp[:4])
        payload = tcp[(tcp[12] >> 4) * 4 :]
        if not payload or self.port not in (sport, dport):
            return
        with self.lock:
            if dport == self.port:
                self._from_client(self.conns[sport], t, payload)
            else:
                self._from_server(self.conns[dport], t, payload)

    @staticmethod
    def _from_client(conn: Conn, t: float, payload: bytes) -> None:
        if conn.upgraded:
            for message in conn.up.messages(payload):
                parsed = _parse(BackMsg, message)
                if parsed is not None and parsed.WhichOneof("type") == "rerun_script":
                    conn.asked.append(t)
        elif payload[:4] in (b"GET ", b"POST", b"HEAD"):
            line = payload.split(b"\r\n", 1)[0]
            conn.requests.append((t, line))
            conn.websocket = line.startswith(b"GET /_stcore/stream")

    @staticmethod
    def _from_server(conn: Conn, t: float, payload: bytes) -> None:
        if not conn.upgraded:
            if payload.startswith(b"HTTP/1.1 "):
                conn.answers.append((t, payload.split(b"\r\n", 1)[0]))
            if conn.websocket and payload.startswith(b"HTTP/1.1 101"):
                conn.upgraded = True
                payload = payload.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in payload else b""
            else:
                return
        for message in conn.down.messages(payload):
            for found in STEP.finditer(message):
                conn.steps.setdefault(int(found.group(1)), t)
            parsed = _parse(ForwardMsg, message)
            kind = parsed.WhichOneof("type") if parsed is not None else None
            if kind == "script_finished" and parsed.script_finished == FINISHED:
                conn.finished.append(t)

    # ---- reading ---------------------------------------------------------------------------------------------

    def websockets(self) -> dict[int, Conn]:
        with self.lock:
            return {port: conn for port, conn in self.conns.items() if conn.websocket}

    def follow_answers(self, after: float, before: float) -> list[float]:
        """When the server answered a request of the follow route (GET /_class/...) between the two times: the
        held polls it let go (a browser sends a connection's next request only after the last one's answer)."""
        with self.lock:
            found = []
            for conn in self.conns.values():
                for t, _status in conn.answers:
                    asked = [line for at, line in conn.requests if at <= t]
                    if after <= t <= before and asked and asked[-1].startswith(b"GET /_class/"):
                        found.append(t)
            return sorted(found)


def _parse(proto: type, message: bytes) -> Any:
    """The message as one of Streamlit's protocol's (BackMsg, ForwardMsg), or None for bytes that are not one."""
    try:
        return proto.FromString(message)
    except DecodeError:
        return None
