"""The soak's models and its chain rule (tests/soak/soak_model.py): quick, in the default run."""

from soak_model import chain_segments, pingpong_before, pingpong_step, run_model, s32


def test_step_inverts():
    for s, x in [(0, 0), (1, -1 & 0xFFFFFFFF), (0xDEADBEEF, 12345), (0x80000000, 0x7FFFFFFF)]:
        assert pingpong_before(pingpong_step(s, x), x) == s


def test_run_model_matches_the_first_call():
    # the callee after reset, run(1): one call f(1) from state 0
    assert run_model(0, 1) == pingpong_step(0, 1)
    assert run_model(7, 0) == 7
    assert s32(0xFFFFFFFF) == -1


def _calls(xs, state=0):
    out = []
    for x in xs:
        state = pingpong_step(state, x)
        out.append((x, state))
    return out


def test_chain_one_piece_when_every_call_is_seen():
    calls = _calls(range(20))
    assert chain_segments(calls[::-1]) == (1, [])       # the order seen does not matter


def test_chain_pieces_count_unseen_calls():
    calls = _calls(range(20))
    assert chain_segments(calls[:5] + calls[6:]) == (2, [])    # one call unseen
    assert chain_segments(calls[1:]) == (2, [])                # the first call unseen
    assert chain_segments(calls[1:9] + calls[10:]) == (3, [])


def test_chain_reports_a_state_left_twice():
    calls = _calls(range(5))
    twice = (99, pingpong_step(pingpong_before(calls[2][1], calls[2][0]), 99))
    n, problems = chain_segments(calls + [twice])
    assert problems and "left twice" in problems[0]
