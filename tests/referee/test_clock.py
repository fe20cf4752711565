"""Clock arithmetic: presets, increments and caps, quiet hours (DST included), reminders, downtime."""

from __future__ import annotations

import pytest

from engine.referee import clock as c
from engine.referee.clock import SPEEDS, QuietHours, get_speed

from .helpers import DAY, HOUR, MONDAY, at

DAILY2 = get_speed("daily-2")
LIVE3 = get_speed("live-3")
NIGHTS_ROME = QuietHours(time_zone="Europe/Rome", start_hour=23, end_hour=7)


def test_presets_form_one_consistent_table():
    assert c.DEFAULT_SPEED == "untimed" and c.RECOMMENDED_SPEED in SPEEDS
    untimed = SPEEDS["untimed"]
    assert not untimed.timed and not untimed.rated and "unrated" in untimed.label
    for speed in SPEEDS.values():
        if not speed.timed:
            continue
        assert speed.rated and 0 < speed.increment <= speed.bank
        assert list(speed.reminders) == sorted(speed.reminders, reverse=True) and speed.reminders
        assert speed.quiet_pauses == speed.name.startswith("daily")
    # "About N moves a day": the increment is a day divided by N.
    for moves in (1, 2, 4):
        assert SPEEDS[f"daily-{moves}"].increment == DAY / moves
    with pytest.raises(c.UnknownSpeed, match="Speeds: untimed"):
        get_speed("blitz")


def test_increment_is_added_at_the_end_of_a_turn_and_capped_at_the_start_value():
    clock = c.start_turn(c.new_clock(DAILY2), MONDAY)
    assert c.remaining_at(clock, MONDAY + HOUR, DAILY2, None) == 36 * HOUR - HOUR
    # A quick move: back to the cap, never above it.
    after_quick = c.end_turn(clock, MONDAY + HOUR, DAILY2, None)
    assert after_quick.remaining == 36 * HOUR and not after_quick.running
    # A slow move (30 h): 6 h left, plus 12 h.
    after_slow = c.end_turn(clock, MONDAY + 30 * HOUR, DAILY2, None)
    assert after_slow.remaining == 18 * HOUR
    # The bank refills turn by turn, up to the cap.
    again = c.end_turn(c.start_turn(after_slow, MONDAY + 31 * HOUR), MONDAY + 32 * HOUR, DAILY2, None)
    assert again.remaining == 18 * HOUR - HOUR + 12 * HOUR
    # Playing after the flag fell starts again from zero plus one increment.
    late = c.end_turn(clock, MONDAY + 50 * HOUR, DAILY2, None)
    assert late.remaining == 12 * HOUR


def test_live_speed_is_minutes_per_move():
    clock = c.start_turn(c.new_clock(LIVE3), MONDAY)
    assert c.deadline(clock, LIVE3, None) == MONDAY + 180
    assert c.end_turn(clock, MONDAY + 170, LIVE3, None).remaining == 180  # full again for the next move


def test_quiet_hours_cross_midnight_and_pause_daily_clocks_only():
    start = at("2024-03-04 22:00", "Europe/Rome")
    end = at("2024-03-05 08:00", "Europe/Rome")
    assert c.quiet_overlap(NIGHTS_ROME, start, end) == 8 * HOUR
    assert c.time_used(start, end, NIGHTS_ROME, pauses=True) == 2 * HOUR
    assert c.time_used(start, end, NIGHTS_ROME, pauses=False) == 10 * HOUR
    assert c.is_quiet(NIGHTS_ROME, at("2024-03-05 06:59", "Europe/Rome"))
    assert not c.is_quiet(NIGHTS_ROME, at("2024-03-05 07:00", "Europe/Rome"))
    assert c.quiet_end(NIGHTS_ROME, at("2024-03-04 23:30", "Europe/Rome")) == at(
        "2024-03-05 07:00", "Europe/Rome"
    )
    # A daily clock started at 22:00 with 3 hours left: 1 hour tonight, 2 tomorrow from 07:00.
    clock = c.SeatClock(remaining=3 * HOUR, running_since=start, turn_budget=3 * HOUR)
    assert c.deadline(clock, DAILY2, NIGHTS_ROME) == at("2024-03-05 09:00", "Europe/Rome")
    assert c.deadline(clock, LIVE3, NIGHTS_ROME) == start + 3 * HOUR  # live clocks never pause


def test_quiet_hours_follow_daylight_saving_time():
    # Rome moves to summer time in the night of 30-31 March 2024: that night is one hour shorter.
    night = (at("2024-03-30 22:00", "Europe/Rome"), at("2024-03-31 08:00", "Europe/Rome"))
    assert c.quiet_overlap(NIGHTS_ROME, *night) == 7 * HOUR
    # Quiet hours in a time zone west of UTC, within one local day.
    afternoon = QuietHours(time_zone="America/New_York", start_hour=13, end_hour=15)
    assert c.quiet_overlap(afternoon, at("2024-07-01 00:00"), at("2024-07-02 00:00")) == 2 * HOUR
    assert c.is_quiet(afternoon, at("2024-07-01 17:30"))  # 13:30 in New York


@pytest.mark.parametrize("budget", [0.5 * HOUR, 7 * HOUR, 8 * HOUR, 30 * HOUR, 5 * DAY])
@pytest.mark.parametrize("start", ["2024-03-04 22:30", "2024-03-05 03:00", "2024-03-30 12:00"])
def test_time_after_is_the_inverse_of_time_used(budget, start):
    begin = at(start, "Europe/Rome")
    end = c.time_after(begin, budget, NIGHTS_ROME, pauses=True)
    assert c.time_used(begin, end, NIGHTS_ROME, pauses=True) == pytest.approx(budget)
    assert not c.is_quiet(NIGHTS_ROME, end - 1)  # a flag never falls in the middle of the night


def test_bad_quiet_hours_are_refused():
    with pytest.raises(ValueError, match="time zone"):
        QuietHours(time_zone="Mars/Olympus", start_hour=1, end_hour=2).check()
    with pytest.raises(ValueError, match="0 to 23"):
        QuietHours(time_zone="UTC", start_hour=1, end_hour=24).check()
    with pytest.raises(ValueError, match="different"):
        QuietHours(time_zone="UTC", start_hour=5, end_hour=5).check()


def test_reminder_ladder_half_time_then_near_the_end_then_the_flag():
    clock = c.start_turn(c.new_clock(DAILY2), MONDAY)  # 36 h: reminders at 18 h and 3.6 h left
    assert c.reminder_times(clock, DAILY2, None) == [MONDAY + 18 * HOUR, MONDAY + 32.4 * HOUR]
    assert c.next_check(clock, DAILY2, None) == MONDAY + 18 * HOUR
    assert c.check(clock, MONDAY + 17 * HOUR, DAILY2, None) == c.ClockCheck(next_due=MONDAY + 18 * HOUR)
    first = c.check(clock, MONDAY + 18 * HOUR, DAILY2, None)
    assert first.remind and first.rungs_sent == 1 and first.next_due == MONDAY + 32.4 * HOUR
    clock.reminders_sent = first.rungs_sent
    assert not c.check(clock, MONDAY + 20 * HOUR, DAILY2, None).remind  # never twice
    second = c.check(clock, MONDAY + 33 * HOUR, DAILY2, None)
    assert second.remind and second.rungs_sent == 2 and second.next_due == MONDAY + 36 * HOUR
    clock.reminders_sent = 2
    flag = c.check(clock, MONDAY + 36 * HOUR, DAILY2, None)
    assert flag.ran_out and not flag.remind and flag.next_due is None


def test_several_rungs_reached_at_once_give_one_reminder():
    clock = c.start_turn(c.new_clock(DAILY2), MONDAY)
    late = c.check(clock, MONDAY + 35 * HOUR, DAILY2, None)
    assert late.remind and late.rungs_sent == 2 and late.next_due == MONDAY + 36 * HOUR


def test_reminders_wait_for_the_end_of_quiet_hours():
    # A live game at 22:59 in Rome: the half-time rung (90 s later) falls in quiet hours.
    start = at("2024-03-04 22:59", "Europe/Rome")
    clock = c.start_turn(c.new_clock(LIVE3), start)
    morning = at("2024-03-05 07:00", "Europe/Rome")
    # The rung moves to the morning, after the flag: it is never sent.
    assert c.reminder_times(clock, LIVE3, NIGHTS_ROME) == [None]
    assert c.next_check(clock, LIVE3, NIGHTS_ROME) == start + 180
    # A daily clock started just before quiet hours: its rungs fall in waking hours only.
    daily = c.start_turn(c.SeatClock(remaining=2 * HOUR), at("2024-03-04 22:30", "Europe/Rome"))
    assert c.reminder_times(daily, DAILY2, NIGHTS_ROME) == [morning + 0.5 * HOUR, morning + 1.3 * HOUR]


def test_downtime_is_credited_back_by_settling_at_the_last_heartbeat():
    clock = c.start_turn(c.new_clock(DAILY2), MONDAY)
    clock.reminders_sent = 1
    heartbeat, restart = MONDAY + 10 * HOUR, MONDAY + 20 * HOUR
    settled = c.settle(clock, heartbeat, restart, DAILY2, None)
    assert settled.running_since == restart and settled.remaining == 26 * HOUR
    assert settled.turn_budget == 36 * HOUR and settled.reminders_sent == 1
    assert c.deadline(settled, DAILY2, None) == restart + 26 * HOUR
    # A turn that started during the outage (a move right after the restart) loses nothing.
    fresh = c.start_turn(c.new_clock(DAILY2), restart - 1)
    assert c.settle(fresh, heartbeat, restart, DAILY2, None).remaining == 36 * HOUR
    # A turn that started after the restart (a table credited twice by mistake) keeps its start.
    later = c.start_turn(c.new_clock(DAILY2), restart + 5)
    assert c.settle(later, heartbeat, restart, DAILY2, None) == later
    assert c.settle(settled, heartbeat, restart, DAILY2, None) == settled  # settling twice changes nothing


def test_durations_read_well():
    assert c.format_duration(0) == "0s"
    assert c.format_duration(-5) == "0s"
    assert c.format_duration(65) == "1m 05s"
    assert c.format_duration(3 * HOUR + 7 * 60) == "3h 07m"
    assert c.format_duration(36 * HOUR) == "1d 12h"
