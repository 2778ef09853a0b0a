"""The fake Bot API notices two bot instances polling at once (``poll_overlaps``), and a long
poll whose bot went away ends without overlapping the next bot's."""
from __future__ import annotations

import http.client
import json
import threading

from tests.bot.test_startup import wait_for
from tests.fakebotapi import FakeBotAPI


def _connect(fake) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", int(fake.base_url.split(":")[2].split("/")[0]), timeout=10)


def _poll(fake, connection, timeout: int) -> dict:
    connection.request("POST", f"/bot{fake.token}/getUpdates", body=json.dumps({"timeout": timeout}),
                       headers={"Content-Type": "application/json"})
    return json.loads(connection.getresponse().read())


def _waiting_polls(fake) -> int:
    with fake._lock:
        return len(fake._pollers)


def test_two_pollers_at_once_are_recorded_and_the_older_poll_gets_409():
    with FakeBotAPI() as fake:
        first, second = _connect(fake), _connect(fake)
        answers = []
        waiting = threading.Thread(target=lambda: answers.append(_poll(fake, first, 5)))
        waiting.start()
        assert wait_for(lambda: _waiting_polls(fake) == 1, 5)
        assert _poll(fake, second, 0) == {"ok": True, "result": []}
        waiting.join(5)
        assert answers[0]["error_code"] == 409 and "terminated by other getUpdates" in answers[0]["description"]
        [overlap] = fake.poll_overlaps
        assert overlap.client != overlap.others[0]
        first.close()
        second.close()


def test_one_poller_after_another_and_a_poller_that_hung_up_overlap_nothing():
    with FakeBotAPI() as fake:
        connection = _connect(fake)
        for _ in range(3):  # one bot polling again and again on its connection
            _poll(fake, connection, 0)
        gone = _connect(fake)  # a bot killed while its poll waits
        gone.request("POST", f"/bot{fake.token}/getUpdates", body=json.dumps({"timeout": 30}),
                     headers={"Content-Type": "application/json"})
        assert wait_for(lambda: _waiting_polls(fake) == 1, 5)
        gone.sock.close()
        assert wait_for(lambda: _waiting_polls(fake) == 0, 5), "the orphaned poll goes on"
        fake.add_user(1, "Anna")
        fake.user_sends(1, 1, "/start")
        assert len(_poll(fake, _connect(fake), 0)["result"]) == 1  # the update was not taken by the dead poll
        assert fake.poll_overlaps == []
        connection.close()
