"""The class benchmark's packet reader (scripts/wire.py) reads what the server sent as the browser would: RFC 6455
frames (masked from the page, split over segments, fragmented), Streamlit's BackMsg / ForwardMsg, HTTP answers."""

from __future__ import annotations

import os
import socket
import struct

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from scripts.wire import Conn, Stream, Wire


def frame(payload: bytes, *, mask: bool = False, fin: bool = True, opcode: int = 2) -> bytes:
    head = bytes([(0x80 if fin else 0) | opcode])
    size = len(payload)
    bit = 0x80 if mask else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 1 << 16:
        head += bytes([bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", size)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def finished() -> bytes:
    msg = ForwardMsg()
    msg.script_finished = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
    return msg.SerializeToString()


def early() -> bytes:
    msg = ForwardMsg()
    msg.script_finished = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN
    return msg.SerializeToString()


def query(step: int) -> bytes:
    msg = ForwardMsg()
    msg.page_info_changed.query_string = f"class=AB12CD34&lesson_step={step}"
    return msg.SerializeToString()


def rerun() -> bytes:
    msg = BackMsg()
    msg.rerun_script.query_string = "lesson_step=2"
    return msg.SerializeToString()


def test_frames_split_over_segments_masked_long_and_fragmented_are_read_whole():
    big = b"x" * 70_000  # a 64-bit length
    mid = b"y" * 300  # a 16-bit length
    wire = frame(b"hello", mask=True) + frame(mid) + frame(big) + frame(b"ab", fin=False) + frame(b"cd", opcode=0)
    wire += frame(b"", opcode=9)  # a ping: not the app's
    stream, got = Stream(), []
    for i in range(0, len(wire), 7):  # segments that cut through headers and payloads
        got += stream.messages(wire[i : i + 7])
    assert got == [b"hello", mid, big, b"abcd"]
    assert stream.pending == b""


def test_the_server_side_of_a_websocket_records_steps_finished_runs_and_the_pages_rerun_requests():
    conn = Conn()
    Wire._from_client(conn, 1.0, b"GET /_stcore/stream HTTP/1.1\r\nHost: x\r\n\r\n")
    Wire._from_server(conn, 1.1, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n" + frame(query(1)))
    Wire._from_client(conn, 2.0, frame(rerun(), mask=True))
    Wire._from_client(conn, 2.1, frame(b"\x00garbage", mask=True))  # not a BackMsg: ignored
    sent = frame(query(2)) + frame(early()) + frame(query(2)) + frame(finished())
    Wire._from_server(conn, 2.5, sent[:5])
    Wire._from_server(conn, 2.7, sent[5:])
    assert conn.websocket and conn.upgraded
    assert conn.requests == [(1.0, b"GET /_stcore/stream HTTP/1.1")]
    assert conn.answers == [(1.1, b"HTTP/1.1 101 Switching Protocols")]
    assert conn.steps == {1: 1.1, 2: 2.7}  # step 2's message was completed by the second segment
    assert conn.asked == [2.0]
    assert conn.finished == [2.7]  # a run that ended early for a rerun is not a finished run


def packet(sport: int, dport: int, payload: bytes) -> bytes:
    ip = bytes([0x45, 0, 0, 0, 0, 0, 0, 0, 64, socket.IPPROTO_TCP, 0, 0]) + bytes([127, 0, 0, 1] * 2)
    tcp = struct.pack("!HHIIBBHHH", sport, dport, 0, 0, 5 << 4, 0x18, 0, 0, 0)
    return b"\x00" * 14 + ip + tcp + payload


def test_follow_answers_are_the_answers_to_the_follow_route_only():
    wire = Wire(8501)  # not entered: no capture, the packets are fed by hand
    wire._packet(1.0, packet(40001, 8501, b"GET /_class/AB12CD34?v=3 HTTP/1.1\r\n\r\n"))
    wire._packet(5.0, packet(8501, 40001, b'HTTP/1.1 200 OK\r\n\r\n{"version": 4}'))
    wire._packet(5.5, packet(40001, 8501, b"GET /static/js/main.js HTTP/1.1\r\n\r\n"))
    wire._packet(5.6, packet(8501, 40001, b"HTTP/1.1 200 OK\r\n\r\n..."))  # a file on the same connection
    wire._packet(5.2, packet(40002, 8501, b"GET /_class/AB12CD34?v=3 HTTP/1.1\r\n\r\n"))
    wire._packet(5.3, packet(8501, 40002, b'HTTP/1.1 200 OK\r\n\r\n{"version": 4}'))
    wire._packet(5.4, packet(40003, 9999, b"GET /_class/x HTTP/1.1\r\n\r\n"))  # another server's port
    assert wire.follow_answers(0.0, 10.0) == [5.0, 5.3]
    assert wire.follow_answers(5.1, 10.0) == [5.3]
