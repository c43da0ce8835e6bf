"""Event inference between settled readings, on hand-made readings."""

from dataclasses import replace

import numpy as np
import pytest

from calibration.geometry import load_board
from vision.events import LOST_UNREAD, EventInferer, Motion
from vision.pieces import BoardReading, Piece
from vision.pockets import PocketActivity, PocketSpell

CARROM_POCKETS = load_board("carrom").pocket_centres_mm()


def reading(*pieces, game="carrom", twenties=None):
    return BoardReading(game, tuple(Piece(kind, x, y, 15.5, 0.9) for kind, x, y in pieces), twenties or {})


BASE = [("white", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250)]


def inferer(game="carrom"):
    pockets = CARROM_POCKETS if game != "crokinole" else ((0.0, 0.0),)
    inf = EventInferer(game, pocket_centres_mm=pockets)
    inf.settled(reading(*BASE, game=game), 0.0, None)
    return inf


def kinds(observations):
    return [(o.type, o.piece, o.pocket) for o in observations]


def test_the_first_reading_and_an_unchanged_board_say_nothing():
    inf = inferer()
    assert inf.settled(reading(*BASE), 2.0, Motion(1.0, None)) == []


def test_a_piece_gone_with_a_busy_pocket_was_pocketed_there_when_it_was_busiest():
    inf = inferer()
    after = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 100, 80))
    busy = (PocketActivity(0, 0.0, None), PocketActivity(2, 0.3, 1.7))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, busy))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "white", 2)]
    assert observations[0].t_s == 1.2 and observations[1].t_s == 1.7


def test_a_pocket_stirred_before_the_strike_too_took_the_piece_in_its_spell_after_the_strike():
    # As carrom clip 5140 at 65 s: the striker lifted off pocket 0's mouth before the stroke stirred it most.
    inf = inferer()
    after = reading(("white", 0, 0), ("black", 40, 0), ("striker", 100, 80))
    spells = (PocketSpell(0.6, 0.5), PocketSpell(2.1, 0.2))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(0, 0.7, 0.6, 0.6, spells),)))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "queen", 0)]
    assert observations[1].t_s == 2.1


def test_pieces_struck_in_one_after_another_before_the_board_settled_each_get_their_own_spell():
    # As carrom clip 5128: strokes in a row; pocket 0 took a black twice, pocket 1 the queen between.
    (x0, y0), (x1, y1) = 0.7 * np.array(CARROM_POCKETS[0]), 0.7 * np.array(CARROM_POCKETS[1])
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("white", 0, 0), ("black", x0, y0), ("black", x0, y0 * 0.8), ("queen", x1, y1),
                        ("striker", 0, -250)), 1.0, None)
    after = reading(("white", 0, 0), ("striker", 60, -250))
    activity = (PocketActivity(0, 1.0, 2.1, 2.1, (PocketSpell(2.1, 0.5), PocketSpell(8.3, 0.5))),
                PocketActivity(1, 0.3, 5.2, 5.2, (PocketSpell(5.2, 0.3),)))
    observations = inf.settled(after, 10.0, Motion(1.5, 2.0, activity, later_strikes=(5.0, 8.0)))
    pocketed = sorted((o.t_s, o.piece, o.pocket) for o in observations if o.type == "pocketed")
    assert pocketed == [(2.1, "black", 0), (5.2, "queen", 1), (8.3, "black", 0)]


def test_a_pocket_busy_too_soon_after_the_strike_seen_took_a_piece_struck_under_the_arm_running_into_it():
    # As couronne clip 5126 at 84.4 s: the strike showed late (the ring rolled along the cushion with the
    # leaving hand); the pocket took it sooner after the strike seen than it could have rolled there.
    def pocketed(arm_ran_in_s):
        inf = inferer()
        after = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
        motion = Motion(0.5, 1.2, (PocketActivity(2, 0.3, 1.3, 1.3, (PocketSpell(1.3, 0.3),)),),
                        arm_ran_in_s=arm_ran_in_s)
        return [kinds([o])[0] for o in inf.settled(after, 3.0, motion) if o.piece == "white"]

    assert pocketed(None) == []  # not reached in time: no pocket took it (a coin lost, after more readings)
    assert pocketed(1.0) == [("pocketed", "white", 2)]


def test_a_piece_gone_into_a_pocket_that_stirred_as_one_dropping_in_was_struck_though_no_strike_showed():
    # As couronne clip 5119 at 82.6 s: the shooter and a ring rolled along the cushions, all taken for an arm.
    def observed(energy):
        inf = inferer()
        after = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
        motion = Motion(0.5, None, (PocketActivity(2, energy, 1.3, 1.3, (PocketSpell(1.3, energy),)),))
        return kinds(inf.settled(after, 3.0, motion))

    assert observed(0.3) == [("shot", "striker", None), ("pocketed", "white", 2)]
    assert ("shot", "striker", None) not in observed(0.02)  # a faint stir: more likely a misread


def test_a_striker_gone_with_a_coin_in_a_stroke_seen_as_no_strike_went_in_with_it_unless_a_hand_came():
    # As couronne clip 5107 at 100.8 s: no strike showed, the ring and the shooter dropped into one pocket (two
    # bursts of change in one spell).
    for hand_came, expected in ((False, [("shot", "striker", None), ("pocketed", "white", 2),
                                         ("pocketed", "striker", 2)]),
                                (True, [("shot", "striker", None), ("pocketed", "white", 2)])):
        inf = inferer()
        after = reading(("black", 40, 0), ("queen", -40, 0))
        both_in = (PocketSpell(1.9, 0.6, peak=0.15, bursts=2),)  # a coin's peak: a striker's says it went in
        motion = Motion(0.5, None, (PocketActivity(2, 0.6, 1.9, 1.9, both_in),), hand_after_strike=hand_came)
        assert kinds(inf.settled(after, 3.0, motion)) == expected


def test_a_striker_gone_with_a_coin_and_no_hand_since_the_strike_went_into_the_coins_pocket():
    # Carrom: no hand came to take it, and a piece never leaves the board by itself. The pocket's spell shows two
    # pieces dropping in, one after the other (its peak a coin's: a striker's drop alone says it went in).
    both_in = (PocketActivity(2, 0.6, 1.9, 1.9, (PocketSpell(1.9, 0.6, peak=0.15, bursts=2),)),)
    for hand_came, expected in ((False, [("pocketed", "black", 2), ("pocketed", "striker", 2)]),
                                (True, [("pocketed", "black", 2)])):
        inf = inferer()
        after = reading(("white", 0, 0), ("queen", -40, 0))
        motion = Motion(0.5, 1.2, both_in, hand_after_strike=hand_came)
        observations = [o for o in inf.settled(after, 3.0, motion) if o.type != "shot"]
        assert kinds(observations) == expected
        assert all(o.needs_review for o in observations if o.piece == "striker")


@pytest.mark.parametrize("peak, energy, followed", [(0.21, 0.7, True), (0.15, 0.7, False), (0.21, 0.2, False)])
def test_a_striker_gone_after_a_stroke_followed_the_coin_into_its_pocket_where_the_drop_was_a_strikers(
        peak, energy, followed):
    # As simulated clips 5212 at 102.9 s and 5216 at 73.8 s (1080p): a black dropped in and the striker 0.1 s after
    # it, one burst of change ending at the striker's drop. A hand came since, to put the dues down: the striker is
    # no less pocketed. A coin's drop alone changes less of the pocket's ring, and an arm's flicker over it lasts
    # one frame: the striker was picked up.
    drop = PocketActivity(2, energy, 1.9, 1.9, (PocketSpell(1.9, energy, peak=peak),))
    inf = inferer()
    after = reading(("white", 0, 0), ("queen", -40, 0))
    observations = [o for o in inf.settled(after, 3.0, Motion(0.5, 1.2, (drop,), hand_after_strike=True))
                    if o.type != "shot"]
    expected = [("pocketed", "black", 2)] + ([("pocketed", "striker", 2)] if followed else [])
    assert kinds(observations) == expected
    assert not any(o.needs_review for o in observations)


def test_a_striker_unread_after_the_stroke_went_into_no_pocket_whose_spell_shows_no_drop_of_its_own():
    # As carrom clips 5205 at 170 s and 5209 at 44.2 s (1080p): a pale striker the reader missed, the pocket's spell
    # one burst (the coin's drop alone); and clips 5206 at 103 s and 5211 at 182 s: a spell falling off as slowly
    # as it rose (the striker passing by). The striker is on the board, unread. A spell ending at its peak is one.
    coin_alone = PocketActivity(2, 0.3, 1.9, 1.9, (PocketSpell(1.9, 0.3, peak=0.15, tail=0.09),))
    passed_by = PocketActivity(1, 0.8, 1.9, 1.9, (PocketSpell(1.9, 0.8, peak=0.17, tail=0.13, bursts=2),))
    inf = inferer()
    after = reading(("white", 0, 0), ("queen", -40, 0))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (coin_alone,), hand_after_strike=False))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "black", 2)]
    inf = inferer()
    after = reading(("white", 0, 0), ("black", 40, 0), ("queen", -40, 0))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (passed_by,), hand_after_strike=False))
    assert kinds(observations) == [("shot", "striker", None)]
    # As clip 5209 at 25.6 s: a pocket stirred faintly, no coin gone into it, is no drop either.
    faint = PocketActivity(3, 0.01, 1.9, 1.9, (PocketSpell(1.9, 0.01, peak=0.02),))
    inf = inferer()
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (faint,), hand_after_strike=False))
    assert kinds(observations) == [("shot", "striker", None)]
    dropped = PocketActivity(1, 0.8, 1.9, 1.9, (PocketSpell(1.9, 0.8, peak=0.26, tail=0.05),))
    inf = inferer()
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (dropped,), hand_after_strike=False))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "striker", 1)]


def test_a_striker_read_as_a_coin_where_it_came_to_rest_is_still_the_striker():
    # As carrom clip 5143 at 3.2 s: at 960x540 the pale striker on the pale board measured a coin's size.
    inf = inferer()
    after = reading(("white", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("white", 68, -17))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(2, 0.6, 1.9),)))
    assert kinds(observations) == [("shot", "striker", None)]
    assert inf.kinds_on_board() == {"white": 1, "black": 1, "queen": 1, "striker": 1}


def test_a_coin_taken_for_the_striker_read_as_a_coin_is_one_once_the_striker_is_read_elsewhere():
    # Simulated clip 5205 at 181.5 to 187.1 s (1080p): a pale white come where the striker vanished was taken for the
    # striker read as a coin; with the striker read elsewhere since, it stayed "the striker", and when the white was
    # struck and not read, it was no coin gone.
    inf = inferer()
    for t_s in (1.0, 2.0, 3.0):
        inf.settled(reading(*BASE), t_s, Motion(t_s - 0.5, None, still=True))  # read as the striker a while
    taken = reading(("white", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("white", 68, -17))
    inf.settled(taken, 6.0, Motion(3.5, 4.2, (PocketActivity(2, 0.6, 4.9),)))
    unchanged = picture_unchanged_at((0, 0), (40, 0), (-40, 0), (68, -17))
    striker_back = reading(("white", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("white", 68, -17),
                           ("striker", 0, -250))
    for t_s in (9.0, 12.0):
        inf.settled(striker_back, t_s, Motion(t_s - 2.0, None, unchanged=unchanged))
    assert inf.kinds_on_board() == {"white": 2, "black": 1, "queen": 1, "striker": 1}


def test_a_coin_come_to_rest_where_one_of_its_kind_is_gone_is_that_coin_not_the_striker():
    inf = inferer()
    after = reading(("black", 40, 0), ("queen", -40, 0), ("white", 68, -17))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(2, 0.6, 1.9),)))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "striker", 2)]


@pytest.mark.parametrize(("striker_face_lab", "striker_read"), [((250.0, 128.0, 130.0), False),
                                                                   ((40.0, 128.0, 128.0), True)])
def test_a_black_come_to_rest_where_none_lay_is_the_striker_read_as_a_coin_only_if_the_striker_is_dark(
        striker_face_lab, striker_read):
    # As simulated clip 5216 at 76.7 s (1080p): the light striker went into a pocket and a due black was put down
    # after the stroke; a light striker is read as a white where it came to rest, a black one (the edited webcam
    # photo carrom_mod2 holds one) as a black.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    first = reading(*BASE)
    inf.settled(BoardReading("carrom", first.pieces, {}, colours_lab={"striker": striker_face_lab}), 0.0, None)
    after = reading(("white", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("black", 68, -17))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(2, 0.6, 1.9),)))
    if striker_read:
        assert kinds(observations) == [("shot", "striker", None)]
        assert inf.kinds_on_board()["striker"] == 1
    else:
        assert kinds(observations) == [("shot", "striker", None), ("pocketed", "striker", 2)]
        assert "striker" not in inf.kinds_on_board()


@pytest.mark.parametrize("hand_came", [True, None])
def test_a_coin_on_the_centre_spot_where_none_lay_after_a_hand_came_was_put_down_not_struck_there(hand_came):
    # As simulated clip 5216 at 76.7 s (1080p): a black went into a pocket and, a hand having reached in since, a due
    # black was put down on the centre spot; it is not the pocketed black moved there. Without a hand seen, a coin
    # there may have rolled there.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("white", 100, 0), ("black", 300, 300), ("striker", 0, -250)), 0.0, None)
    after = reading(("white", 100, 0), ("black", 1, 2), ("striker", 50, -200))
    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(2, 0.6, 1.9),),
                                                  hand_after_strike=hand_came))
    confirmed = inf.settled(after, 6.0, Motion(5.0, None))
    if hand_came:
        assert kinds(observations) == [("shot", "striker", None), ("pocketed", "black", 2)]
        assert kinds(confirmed) == [("placed", "black", None)]
    else:
        assert kinds(observations) == [("shot", "striker", None)]
        assert confirmed == []
    assert inf.kinds_on_board() == {"white": 1, "black": 1, "striker": 1}


@pytest.mark.parametrize("changed_s, put_down", [(4.0, True), (1.6, False)])
def test_a_coin_come_inside_the_outer_circle_only_once_a_hand_came_was_put_down_not_struck_there(changed_s, put_down):
    # As simulated clip 5216 at 76.7 s (1080p): of two dues put back, one lay 51 mm off the centre, inside the outer
    # circle, and the black pocketed in the stroke took it as moved there. Its spot changed only once the hand had
    # come, when every struck piece was at rest; a coin whose spot changed before then rolled there.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS, placing_radius_mm=85.0)
    inf.settled(reading(("white", 100, 0), ("black", 300, 300), ("striker", 0, -250)), 0.0, None)
    after = reading(("white", 100, 0), ("black", -51, -5), ("striker", 50, -200))
    motion = Motion(0.5, 1.2, (PocketActivity(2, 0.6, 1.9),), hand_after_strike=True, hand_came_s=3.0,
                    changed_at=lambda centres, radii: np.full(len(centres), changed_s))
    observations = inf.settled(after, 5.0, motion)
    confirmed = inf.settled(after, 8.0, Motion(7.0, None))
    if put_down:
        assert kinds(observations) == [("shot", "striker", None), ("pocketed", "black", 2)]
        assert kinds(confirmed) == [("placed", "black", None)] and confirmed[0].t_s == changed_s
    else:
        assert kinds(observations) == [("shot", "striker", None)]
        assert confirmed == []
    assert inf.kinds_on_board() == {"white": 1, "black": 1, "striker": 1}


def test_a_piece_missed_once_without_a_busy_pocket_is_not_an_event():
    inf = inferer()
    blink = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    assert inf.settled(blink, 2.0, Motion(1.0, None)) == []  # nothing rolled: no stroke either
    back = reading(*BASE)
    assert "off_board" not in [o.type for o in inf.settled(back, 3.0, Motion(2.5, None))]


COURONNE_BASE = [("pink", 0, 0), ("blue", 40, 0), ("shooter", 0, -250)]


def test_a_ring_missing_twice_without_a_pocket_went_off_the_board_for_review():
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(*COURONNE_BASE, game="couronne"), 0.0, None)
    gone = reading(("blue", 40, 0), ("shooter", 0, -250), game="couronne")
    inf.settled(gone, 2.0, Motion(1.0, 1.1))
    observations = inf.settled(gone, 3.0, Motion(2.5, None))
    off = [o for o in observations if o.type == "off_board"]
    assert len(off) == 1 and off[0].piece == "pink" and off[0].needs_review and off[0].t_s == 1.1


def test_a_couronne_ring_knocked_off_and_put_back_in_the_centre_circle_went_off_and_was_placed_not_moved():
    # As couronne clip 5107 at 174.9 s: the pink jumped off in a stroke, the opponent put it in the centre circle.
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("pink", 200, 100), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
    assert kinds(inf.settled(reading(("blue", 40, 0), ("shooter", 60, -100), game="couronne"), 2.0,
                             Motion(1.0, 1.1))) == [("shot", "shooter", None)]
    put_back = reading(("pink", 10, -12), ("blue", 40, 0), ("shooter", 60, -100), game="couronne")
    observations = inf.settled(put_back, 4.0, Motion(3.0, None))
    observations += inf.settled(put_back, 6.0, Motion(5.0, None))  # a new piece is confirmed by the next reading
    assert kinds(observations) == [("off_board", "pink", None), ("placed", "pink", None)]
    assert observations[0].t_s == 1.1 and observations[0].needs_review


def test_a_stroke_seen_as_no_strike_is_timed_by_when_it_struck_as_far_as_told():
    after = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    drop = (PocketActivity(2, 0.3, 1.3, 1.3, (PocketSpell(1.3, 0.3),)),)
    for unseen_strike_s, shot_s in ((1.1, 1.1), (None, 0.5)):  # told by the aiming hand letting go, else not
        observations = inferer().settled(after, 3.0, Motion(0.5, None, drop, unseen_strike_s=unseen_strike_s))
        assert [o.t_s for o in observations if o.type == "shot"] == [shot_s]


def test_a_carrom_coin_no_longer_read_with_no_pocket_to_take_it_is_no_event_and_read_again_where_it_lay_the_same_coin():
    # A carrom coin that jumps off is put back in the centre circle by the umpire: a coin that only stops
    # being read (print once taken for a coin, a coin the reader no longer sees) went nowhere.
    inf = inferer()
    gone = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    assert [o.type for o in inf.settled(gone, 2.0, Motion(1.0, 1.1))] == ["shot"]
    assert inf.settled(gone, 3.0, Motion(2.5, None)) == []
    assert inf.kinds_on_board() == {"black": 1, "queen": 1, "striker": 1}
    again = reading(("white", 2, 1), ("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    assert inf.settled(again, 4.0, Motion(3.5, None)) == []
    assert inf.settled(again, 5.0, Motion(4.5, None)) == []  # no coin placed either
    assert inf.kinds_on_board() == {"white": 1, "black": 1, "queen": 1, "striker": 1}


def test_the_striker_picked_up_between_strokes_is_no_event():
    inf = inferer()
    assert inf.settled(reading(*BASE[:3]), 2.0, Motion(1.0, None)) == []


def test_a_coin_put_back_is_placed_once_a_second_reading_confirms_it():
    inf = inferer()
    placed = reading(*BASE, ("white", 0, 60))
    assert inf.settled(placed, 2.0, Motion(1.0, None)) == []
    observations = inf.settled(placed, 3.0, Motion(2.5, None))
    assert kinds(observations) == [("placed", "white", None)] and observations[0].t_s == 1.0


def test_a_coin_put_back_and_struck_in_before_a_second_reading_was_placed_and_pocketed():
    inf = inferer()
    placed = reading(*BASE, ("white", 0, 60))
    assert inf.settled(placed, 2.0, Motion(1.0, None)) == []
    # The next stroke sends it into pocket 3 (the striker stays on the board): that pocket stirred for it.
    struck = reading(*BASE[:3], ("striker", 80, -200))
    observations = inf.settled(struck, 5.0, Motion(3.0, 3.5, (PocketActivity(3, 0.13, 4.1),)))
    assert kinds(observations) == [("placed", "white", None), ("shot", "striker", None), ("pocketed", "white", 3)]
    assert observations[0].t_s == 1.0 and observations[2].t_s == 4.1


def test_a_coin_read_once_and_gone_after_a_stroke_with_no_pocket_left_to_take_it_was_never_there():
    inf = inferer()
    inf.settled(reading(*BASE, ("white", 0, 60)), 2.0, Motion(1.0, None))
    # The one busy pocket took the black.
    struck = reading(("white", 0, 0), ("queen", -40, 0), ("striker", 80, -200))
    observations = inf.settled(struck, 5.0, Motion(3.0, 3.5, (PocketActivity(3, 0.13, 4.1),)))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "black", 3)]


def test_a_still_piece_classified_differently_once_keeps_its_kind():
    inf = inferer()
    flicker = reading(("black", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    assert inf.settled(flicker, 2.0, Motion(1.0, None)) == []
    assert inf.kinds_on_board() == {"white": 1, "black": 1, "queen": 1, "striker": 1}


def test_crokinole_a_new_disc_is_a_shot_of_its_colour_and_a_20_needs_the_hole():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    inf.settled(reading(("light", 100, 0), game="crokinole"), 0.0, None)
    after = reading(("light", 100, 0), ("dark", -150, 20), game="crokinole")
    assert kinds(inf.settled(after, 2.0, Motion(1.0, 1.1))) == [("shot", "dark", None)]
    # A disc that vanished is no 20; one seen in the hole is.
    gone = reading(("dark", -150, 20), game="crokinole")
    assert "sunk_20" not in [o.type for o in inf.settled(gone, 4.0, Motion(3.0, 3.1))]
    sunk = reading(("dark", -150, 20), game="crokinole", twenties={"light": 1})
    observations = inf.settled(sunk, 6.0, Motion(5.0, 5.1, (PocketActivity(0, 0.2, 5.4),)))
    assert ("sunk_20", "light", None) in kinds(observations)
    assert [o.t_s for o in observations if o.type == "sunk_20"] == [5.4]


@pytest.mark.parametrize("game", ["carrom", "couronne"])
def test_observations_have_the_design_shape(game):
    inf = inferer(game)
    observations = inf.settled(reading(*BASE[1:]), 2.0, Motion(1.0, 1.2, (PocketActivity(1, 0.2, 1.5),)))
    for o in observations:
        record = o.to_json()
        assert {"t", "type", "confidence", "needs_review"} <= record.keys()


def test_crokinole_a_disc_seen_in_the_hole_is_the_vanished_disc_nearest_it_held_for_review():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    inf.settled(reading(("light", 30, 0), ("dark", 250, 0), game="crokinole"), 0.0, None)
    hole = (PocketActivity(0, 0.3, 1.6),)
    observations = inf.settled(reading(game="crokinole"), 2.0, Motion(1.0, 1.1, hole, hole_entries=(1.6,), hole_full=True))
    sunk = [o for o in observations if o.type == "sunk_20"]
    assert [(o.piece, o.t_s, o.needs_review) for o in sunk] == [("light", 1.6, True)]
    assert [o.piece for o in observations if o.type == "off_board"] == ["dark"]


def test_crokinole_the_hole_s_look_tells_which_of_two_vanished_discs_went_in():
    # As check clip 5101 at 83.2 s: a disc nearer the hole went into the ditch while the other fell in.
    for brighter, sunk, off in ((False, "dark", "light"), (True, "light", "dark"), (None, "light", "dark")):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
        inf.settled(reading(("light", 30, 0), ("dark", 250, 0), game="crokinole"), 0.0, None)
        motion = Motion(1.0, 1.1, (PocketActivity(0, 0.3, 1.6),), hole_entries=(1.6,), hole_full=True,
                        hole_brighter=() if brighter is None else (brighter,))
        observations = inf.settled(reading(game="crokinole"), 2.0, motion)
        assert [o.piece for o in observations if o.type == "sunk_20"] == [sunk]
        assert [o.piece for o in observations if o.type == "off_board"] == [off]


def test_crokinole_a_hole_turned_dark_is_the_unseen_shot_disc_not_a_light_disc_knocked_off():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="dark")
    inf.settled(reading(("light", 40, 0), ("light", 250, 0), game="crokinole"), 0.0, None)
    # Dark's disc, never read on the board, knocks the light one off and drops into the hole.
    motion = Motion(1.0, 1.1, (PocketActivity(0, 0.3, 1.6),), hole_entries=(1.6,), hole_full=True,
                    hole_brighter=(False,))
    observations = inf.settled(reading(("light", 250, 0), game="crokinole"), 2.0, motion)
    assert sorted(kinds(observations)) == [("off_board", "light", None), ("shot", "dark", None), ("sunk_20", "dark", None)]


def test_crokinole_a_shot_disc_straight_into_the_hole_is_a_20_of_unknown_colour():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    inf.settled(reading(("dark", 250, 0), game="crokinole"), 0.0, None)
    same = reading(("dark", 250, 0), game="crokinole")
    observations = inf.settled(same, 2.0, Motion(1.0, 1.1, (), hole_entries=(1.5,), hole_full=True))
    assert kinds(observations) == [("shot", None, None), ("sunk_20", None, None)]
    # The 20 is counted once: the hole still holding it is no new 20.
    assert kinds(inf.settled(same, 4.0, Motion(3.0, 3.1, hole_full=True))) == [("shot", None, None)]


def picture_unchanged_at(*spots_mm):
    """The picture's word, as the analyzer gives it: unchanged at these spots, changed elsewhere."""
    def unchanged(centres_mm, radii_mm):
        return [any(abs(x - sx) < 1 and abs(y - sy) < 1 for sx, sy in spots_mm) for x, y in centres_mm]
    return unchanged


def test_a_coin_gone_beside_a_busy_pocket_did_not_move_to_where_one_is_read_but_the_picture_did_not_change():
    # Simulated clip 5215 at 69.2 s (1080p): a white read between two coins, where nothing came to rest, was
    # taken for the white gone into the pocket beside it, moved there; the pocketing went unreported.
    corner = int(np.argmin([np.hypot(x - 348, y - 348) for x, y in CARROM_POCKETS]))
    inf = inferer()
    inf.settled(reading(*BASE, ("white", 305, 336), ("black", 219, 200)), 1.0, Motion(0.5, None))
    after = reading(("white", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("striker", 100, 80), ("black", 219, 200),
                    ("white", 232, 228))
    busy = (PocketActivity(corner, 0.4, 2.6),)
    unchanged = picture_unchanged_at((0, 0), (40, 0), (-40, 0), (219, 200), (232, 228))
    observations = inf.settled(after, 3.0, Motion(1.5, 2.0, busy, unchanged=unchanged, clearly_unchanged=unchanged))
    assert ("pocketed", "white", corner) in kinds(observations)


@pytest.mark.parametrize("unsure, unsure_before, unchanged, pocketed", [
    (("white", 250, 40), (), (), False),  # come where the picture changed, away from every piece: the white
    (("white", 202, 199), (), (), False),  # where the white lay, not read, the light there changed: still there
    (("white", 40, 0), (), (), True),  # where the black lay before it moved: the print it uncovered
    (("white", 250, 40), ((250, 40),), (), True),  # an unsure circle there at the last reading too: print
    (("white", 250, 40), (), ((250, 40),), True),  # where the picture did not change: nothing came
    (("black", 250, 40), (), (), True),  # of another kind
])
def test_a_white_not_read_after_a_stroke_is_the_unsure_coin_of_its_kind_come_where_the_picture_changed(
        unsure, unsure_before, unchanged, pocketed):
    # Simulated clip 5211 at 96.2 s (1080p, a board washed out by a bright light): a white struck far stopped on a
    # base line, 0.75 of its rim seen but its face stepping from the board on less than half of it, and was taken
    # for pocketed where the striker had stirred a pocket.
    corner = int(np.argmin([np.hypot(x - 348, y - 348) for x, y in CARROM_POCKETS]))
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    before = reading(*BASE, ("white", 200, 200))
    inf.settled(replace(before, unsure=tuple(Piece("white", x, y, 15.5, 0.8) for x, y in unsure_before)), 0.0, None)
    after = reading(("white", 0, 0), ("black", 100, -60), ("queen", -40, 0), ("striker", 100, 80))
    after = replace(after, unsure=(Piece(*unsure, 15.5, 0.8),))
    still = picture_unchanged_at((0, 0), (-40, 0), *unchanged)
    motion = Motion(1.5, 2.0, (PocketActivity(corner, 0.4, 2.6),), unchanged=still, clearly_unchanged=still)
    observations = inf.settled(after, 3.0, motion)
    assert (("pocketed", "white", corner) in kinds(observations)) == pocketed
    assert inf.kinds_on_board()["white"] == (1 if pocketed else 2)


def test_a_second_queen_read_beside_the_one_on_the_board_is_never_placed():
    # Simulated clip 5218 at 3.1 s (1080p): the queen broken 30 mm off the centre circle, whose rim and the queen's
    # edge were read as a second queen, confirmed as a queen placed.
    inf = inferer()
    twice = reading(("white", 0, 0), ("black", 40, 0), ("queen", -62, -20), ("queen", -33, -7), ("striker", 120, 90))
    # The break changed every spot about the centre for good as it began.
    broken = Motion(1.0, 1.5, changed_at=lambda centres, radii: np.full(len(centres), 1.45))
    observations = inf.settled(twice, 3.0, broken)
    for t_s in (5.0, 7.0, 9.0):
        observations += inf.settled(twice, t_s, Motion(t_s - 1.0, None))
    assert [o for o in observations if o.type == "placed"] == []


def test_a_coin_not_read_where_the_picture_did_not_change_is_still_there_and_no_stroke():
    inf = inferer()
    blink = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    busy = (PocketActivity(2, 0.3, 1.7),)
    as_it_was = picture_unchanged_at((0, 0))
    assert inf.settled(blink, 2.0, Motion(1.0, None, busy, unchanged=as_it_was, clearly_unchanged=as_it_was)) == []
    assert inf.settled(blink, 3.0, Motion(2.5, None, unchanged=picture_unchanged_at((0, 0)))) == []
    # Once its spot does change in a stroke with a busy pocket, it went in.
    after = reading(("black", 40, 0), ("queen", -40, 0), ("striker", 90, 80))
    busy = (PocketActivity(2, 0.3, 4.5),)
    observations = inf.settled(after, 5.0, Motion(4.0, 4.2, busy, unchanged=picture_unchanged_at((40, 0), (-40, 0))))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "white", 2)]


def test_a_coin_first_read_where_nothing_changed_or_after_a_stroke_was_not_placed():
    inf = inferer()
    late = reading(*BASE, ("black", 0, 60))
    unchanged = picture_unchanged_at((0, 0), (40, 0), (-40, 0), (0, -250), (0, 60))
    assert inf.settled(late, 2.0, Motion(1.0, None, unchanged=unchanged)) == []
    assert inf.settled(late, 3.0, Motion(2.5, None, unchanged=unchanged)) == []
    # A coin seen after a stroke moved things came out of hiding (a cluster): no placement either.
    revealed = reading(*BASE, ("black", 0, 60), ("white", 120, -90))
    moved = Motion(4.0, 4.1, unchanged=picture_unchanged_at((0, 0), (40, 0), (-40, 0), (0, 60)))
    assert "placed" not in [o.type for o in inf.settled(revealed, 5.0, moved)]
    assert "placed" not in [o.type for o in inf.settled(revealed, 6.0, Motion(5.5, None, unchanged=unchanged))]


def test_crokinole_a_disc_knocked_off_is_timed_by_its_landing_in_the_ditch_and_turns_alternate():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    inf.settled(reading(("dark", 200, 0), ("dark", 0, -200), game="crokinole"), 0.0, None)
    # A light shot knocks the dark disc east off the board: it lands east at 1.6 s, something else south at 1.3 s.
    after = reading(("dark", 0, -200), ("light", 150, 20), game="crokinole")
    landings = ((1.3, -1.57), (1.6, 0.05))
    observations = inf.settled(after, 2.5, Motion(1.0, 1.1, ditch=landings))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("shot", "light", 1.1), ("off_board", "dark", 1.6)]
    # The next shot leaves no disc on the board nor in the hole: dark's disc went to the ditch.
    observations = inf.settled(after, 5.0, Motion(3.0, 3.2, ditch=((3.9, 2.0),)))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("shot", "dark", 3.2), ("off_board", "dark", 3.9)]


def test_crokinole_a_shot_straight_into_the_hole_is_the_shooters_20_when_the_match_says_who_starts():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="dark")
    inf.settled(reading(("light", 250, 0), game="crokinole"), 0.0, None)
    # Dark's unseen disc knocks the light one on and drops into the hole (a valid shot).
    knocked = reading(("light", 262, 5), game="crokinole")
    observations = inf.settled(knocked, 2.0, Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.5),), hole_entries=(1.5,),
                                                    hole_full=True))
    assert kinds(observations) == [("shot", "dark", None), ("sunk_20", "dark", None)]
    assert kinds(inf.settled(reading(("light", 262, 5), ("light", 90, 40), game="crokinole"), 4.0,
                             Motion(3.0, 3.1))) == [("shot", "light", None)]


def crokinole_inferer(*discs):
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(*discs, game="crokinole"), 0.0, None)
    return inf


def test_crokinole_a_disc_come_to_rest_over_the_hole_is_what_filled_it_and_no_20():
    inf = crokinole_inferer(("dark", 250, 0))
    leaner = reading(("dark", 250, 0), ("light", 15, 0), game="crokinole")
    observations = inf.settled(leaner, 2.0, Motion(1.0, 1.1, hole_entries=(1.6,), hole_full=True))
    assert "sunk_20" not in [o.type for o in observations]


def test_crokinole_a_disc_over_the_hole_knocked_in_is_its_20():
    inf = crokinole_inferer(("dark", 250, 0), ("light", 15, 0))
    after = reading(("dark", 120, 40), game="crokinole")
    observations = inf.settled(after, 3.0, Motion(2.0, 2.1, hole_full=True))
    assert [(o.type, o.piece) for o in observations if o.type != "shot"] == [("sunk_20", "light")]


def test_crokinole_a_20_taken_out_before_the_board_settled_still_counts_at_the_time_it_went_in():
    inf = crokinole_inferer(("dark", 250, 0), ("light", 60, 0))
    after = reading(("dark", 250, 0), game="crokinole")
    observations = inf.settled(after, 4.0, Motion(1.0, 1.1, hole_entries=(1.8,), hole_full=False))
    assert [(o.type, o.piece, o.t_s) for o in observations if o.type != "shot"] == [("sunk_20", "light", 1.8)]


def test_crokinole_a_disc_read_on_the_shooting_line_before_its_strike_is_shot_once_with_the_strike():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5,
                       shooting_line_radius_mm=304.8)
    inf.settled(reading(("light", 100, 0), game="crokinole"), 0.0, None)
    # The hand held still with the dark disc on the line: the board settled before the strike.
    aiming = reading(("light", 100, 0), ("dark", 0, -300), game="crokinole")
    assert inf.settled(aiming, 1.0, Motion(0.5, None)) == []
    shot = reading(("light", 100, 0), ("dark", 20, -60), game="crokinole")
    observations = inf.settled(shot, 3.0, Motion(1.2, 1.5))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("shot", "dark", 1.5)]


def test_crokinole_a_board_cleared_by_hand_for_the_next_round_is_no_removal():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    discs = [("light", 60, 0), ("dark", -60, 20), ("dark", 0, 110), ("light", 30, -90)]
    inf.settled(reading(*discs, game="crokinole"), 0.0, None)
    assert inf.settled(reading(game="crokinole"), 2.0, Motion(1.5, None)) == []
    # Discs taken off after a shot are still removals.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    inf.settled(reading(*discs, game="crokinole"), 0.0, None)
    observations = inf.settled(reading(*discs[2:], game="crokinole"), 2.0, Motion(1.5, None))
    assert kinds(observations) == [("off_board", "light", None), ("off_board", "dark", None)]


def test_crokinole_a_board_cleared_by_hand_with_one_phantom_disc_read_is_no_removal():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    discs = [("light", 60, 0), ("dark", -60, 20), ("dark", 0, 110), ("light", 30, -90)]
    inf.settled(reading(*discs, game="crokinole"), 0.0, None)
    # The reader took print for a light disc where none lay: the board was still cleared.
    phantom = reading(("light", 141, 162), game="crokinole")
    assert inf.settled(phantom, 2.0, Motion(1.5, None)) == []
    # Not read again, it was never there.
    assert inf.settled(reading(game="crokinole"), 4.0, Motion(3.5, None)) == []
    assert inf.kinds_on_board() == {}


def test_a_piece_of_another_kind_come_to_rest_where_a_pocketed_one_lay_is_not_taken_for_it():
    inf = inferer()
    busy = (PocketActivity(2, 0.3, 1.7),)
    # The white went in; the black rolled to within a few mm of where the white lay.
    after = reading(("black", 2, 1), ("queen", -40, 0), ("striker", 100, 80))

    def changed(centres_mm, radii_mm):
        return [False] * len(centres_mm)  # the picture changed wherever it is asked

    observations = inf.settled(after, 3.0, Motion(0.5, 1.2, busy, unchanged=changed))
    assert ("pocketed", "white", 2) in kinds(observations)
    assert ("pocketed", "black", 2) not in kinds(observations)


def test_a_piece_misread_as_another_kind_where_the_picture_did_not_change_keeps_its_identity():
    inf = inferer()

    def unchanged(centres_mm, radii_mm):
        return [True] * len(centres_mm)

    misread = reading(("black", 0, 0), ("black", 40, 0), ("queen", -40, 0), ("striker", 0, -250))
    observations = inf.settled(misread, 3.0, Motion(0.5, None, unchanged=unchanged))
    assert observations == []


def test_the_queen_put_back_on_its_centre_spot_is_placed_though_the_picture_barely_changed():
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("white", 100, 0), ("striker", 0, -250)), 0.0, None)

    def unchanged(centres_mm, radii_mm):
        return [True] * len(centres_mm)  # a red queen on the red centre spot

    assert inf.settled(reading(("white", 100, 0), ("queen", 1, 0)), 2.0, Motion(1.5, None, unchanged=unchanged)) == []
    after = inf.settled(reading(("white", 100, 0), ("queen", 1, 0), ("striker", 0, -250)), 4.0,
                        Motion(3.0, None, unchanged=unchanged))
    assert kinds(after) == [("placed", "queen", None)] and after[0].t_s == 1.5


def test_the_queen_put_back_where_the_picture_barely_changed_is_placed_when_the_hand_came_not_when_an_arm_passed_later():
    # Simulated clip 5209 at 97.5 s (1080p, white board): the queen was put back on the centre spot, then a due white
    # beside it; the arm putting the white down passed over the queen's spot at 98.7 s, its last change.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("white", 100, 0), ("striker", 0, -250)), 0.0, None)

    def unchanged(centres_mm, radii_mm):
        return [bool(np.hypot(x, y) < 5) for x, y in centres_mm]  # a red queen on the red centre spot

    motion = Motion(1.0, None, unchanged=unchanged, changed_at=picture_changed_at((1, 0, 2.6), (60, 20, 2.4)))
    assert inf.settled(reading(("white", 100, 0), ("queen", 1, 0), ("white", 60, 20)), 3.0, motion) == []
    after = inf.settled(reading(("white", 100, 0), ("queen", 1, 0), ("white", 60, 20), ("striker", 0, -250)), 5.0,
                        Motion(4.0, None, unchanged=unchanged))
    placed = {o.piece: o.t_s for o in after if o.type == "placed"}
    assert placed == {"queen": 1.0, "white": 2.4}


def test_crokinole_only_a_dark_disc_can_hide_in_the_hole_unseen_a_light_one_gone_went_to_the_ditch():
    hole = (PocketActivity(0, 0.3, 1.6),)  # the hole's region busy, its look unchanged
    for colour, expected in (("dark", "sunk_20"), ("light", "off_board")):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
        inf.settled(reading((colour, 40, 0), ("dark", 250, 0), game="crokinole"), 0.0, None)
        observations = inf.settled(reading(("dark", 250, 0), game="crokinole"), 2.0, Motion(1.0, 1.1, hole))
        gone = [o for o in observations if o.type in ("sunk_20", "off_board")]
        assert [(o.type, o.piece) for o in gone] == [(expected, colour)], colour


def ditch_with(*sectors, n=24):
    """Discs lying in each of `n` ditch sectors: one in each sector named."""
    return tuple(float(sectors.count(i)) for i in range(n))


def sector_angle(i, n=24):
    return (i + 0.5) * 2 * np.pi / n


def test_crokinole_discs_come_into_the_ditch_are_timed_by_their_sector_and_a_hand_there_is_no_landing():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(("dark", 250, 0), ("dark", 0, 100), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    # Light's shot: the hand's fingers over the ditch at the shooter's side (sector 18) just after the strike,
    # the dark disc east knocked into the ditch (sector 0) at 1.9 s; the other dark disc went into the hole unseen.
    spells = ((1.15, sector_angle(18)), (1.9, sector_angle(0)), (1.3, sector_angle(23)))
    after = reading(("light", 150, 20), game="crokinole")
    motion = Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.6),), ditch=spells, ditch_discs=ditch_with(0))
    observations = inf.settled(after, 2.5, motion)
    assert [(o.type, o.piece, o.t_s) for o in observations] == [
        ("shot", "light", 1.1), ("sunk_20", "dark", 1.6), ("off_board", "dark", 1.9)]


def test_crokinole_a_20_put_into_the_ditch_after_an_invalid_shot_is_taken_off():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
    inf.settled(reading(("light", 250, 0), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    # Dark's disc goes straight into the hole, hitting nothing: seen in the hole.
    shot = inf.settled(reading(("light", 250, 0), game="crokinole"), 2.0,
                       Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.5),), hole_entries=(1.5,), hole_full=True,
                              ditch_discs=ditch_with()))
    assert [(o.type, o.piece) for o in shot] == [("shot", "dark"), ("sunk_20", "dark")]
    # The referee takes it out (the hand stirs the hole at 2.3 s, as in crokinole clip 5126 at 108.8 s) and
    # drops it into the ditch on dark's side at 2.9 s: nothing gone from the surface. It went when taken out.
    removal = inf.settled(reading(("light", 250, 0), game="crokinole"), 3.5,
                          Motion(2.0, None, (PocketActivity(0, 0.4, 2.3, 2.3, (PocketSpell(2.3, 0.4),)),),
                                 ditch=((2.9, sector_angle(6)),), ditch_discs=ditch_with(6)))
    assert [(o.type, o.piece, o.reason, o.t_s) for o in removal] == [("off_board", "dark", "twenty_removed", 2.3)]
    # A disc taken out of the ditch (the board cleared later) is no arrival.
    assert inf.settled(reading(("light", 250, 0), game="crokinole"), 5.0,
                       Motion(4.5, None, ditch_discs=ditch_with())) == []


def test_crokinole_a_second_disc_come_to_rest_over_the_hole_beside_a_first_is_no_20():
    inf = crokinole_inferer(("dark", 250, 0), ("dark", -4, 21))
    both = reading(("dark", 250, 0), ("dark", -4, 21), ("light", -5, -21), game="crokinole")
    observations = inf.settled(both, 2.0, Motion(1.0, 1.1, hole_entries=(1.5,), hole_full=True))
    assert "sunk_20" not in [o.type for o in observations]


def test_crokinole_a_disc_come_over_the_hole_as_another_was_knocked_off_it_is_no_20():
    inf = crokinole_inferer(("dark", 250, 0), ("light", -4, 21))
    swapped = reading(("dark", 250, 0), ("light", -60, 90), ("dark", 17, 0), game="crokinole")
    observations = inf.settled(swapped, 2.0, Motion(1.0, 1.1, hole_entries=(1.5,), hole_full=False))
    assert "sunk_20" not in [o.type for o in observations]


def test_crokinole_an_invalid_shots_20_is_taken_off_even_when_the_next_shot_comes_before_a_settle():
    # Seen arriving in the ditch (a change of the ditch only: the gate saw no motion before the hand
    # came in at 3.4 s), or hidden there behind another disc (no arrival): then when the board began to change.
    for ditch_discs, expected_s in ((ditch_with(6), 2.9), (ditch_with(), 3.4)):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
        inf.settled(reading(("light", 250, 0), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
        inf.settled(reading(("light", 250, 0), game="crokinole"), 2.0,
                    Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.5),), hole_entries=(1.5,), hole_full=True,
                           ditch_discs=ditch_with()))
        merged = inf.settled(reading(("light", 250, 0), ("light", 90, 40), game="crokinole"), 5.0,
                             Motion(3.4, 4.1, ditch_discs=ditch_discs, ditch_changes=((2.9, sector_angle(6)),)))
        assert [(o.type, o.piece, o.t_s) for o in merged] == [("off_board", "dark", expected_s), ("shot", "light", 4.1)]


def test_crokinole_an_invalid_shots_20_is_taken_out_when_the_referee_comes_not_at_a_reading_before():
    # As crokinole clip 5115 at 125.9 s: the board read again, unchanged, before a hand took the 20 out;
    # then the hand took it out and the disc the shot knocked, and that is no shot.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="light")
    inf.settled(reading(("light", 15, -23), ("dark", 45, -4), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    shot = inf.settled(reading(("light", -2, -80), ("dark", 45, -4), game="crokinole"), 2.0,
                       Motion(1.0, 1.1, (PocketActivity(0, 0.5, 1.4),), hole_entries=(1.4,), hole_full=True,
                              ditch_discs=ditch_with()))
    assert [(o.type, o.piece) for o in shot] == [("shot", "light"), ("sunk_20", "light")]  # touched no dark disc
    assert inf.settled(reading(("light", -2, -80), ("dark", 45, -4), game="crokinole"), 2.3, None) == []
    taken = inf.settled(reading(("dark", 45, -4), game="crokinole"), 5.0,
                        Motion(2.5, 3.8, (PocketActivity(0, 0.3, 2.9),), ditch_discs=ditch_with(18, 19),
                               ditch_changes=((3.2, sector_angle(18)), (4.3, sector_angle(19)))))
    assert sorted((o.type, o.piece, o.reason or "") for o in taken) == [
        ("off_board", "light", ""), ("off_board", "light", "twenty_removed")]


def test_crokinole_a_hand_taking_a_hidden_valid_20_out_of_the_hole_is_no_shot_but_a_disc_shot_into_the_ditch_is():
    # As crokinole clip 5115 at 193.5 s: dark's disc went into the dark hole unseen (a valid shot); then a
    # hand took it out, stirring the hole and moving nothing on the board. A disc shot straight into the
    # ditch changes the board no more, but it comes into the ditch.
    for ditch_after, expected in ((ditch_with(3), []), (ditch_with(3, 9), [("shot", "light"), ("off_board", "light")])):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
        inf.settled(reading(("dark", -36, 51), ("light", 150, -100), game="crokinole"), 0.0,
                    Motion(0.0, None, ditch_discs=ditch_with(3)))
        # Valid: it knocked the light disc on its way into the hole.
        shot = inf.settled(reading(("dark", -36, 51), ("light", 160, -110), game="crokinole"), 2.0,
                           Motion(1.0, 1.1, (PocketActivity(0, 0.4, 1.6),), hole_hides=("dark",),
                                  ditch_discs=ditch_with(3)))
        assert [(o.type, o.piece) for o in shot] == [("shot", "dark"), ("sunk_20", "dark")]
        after = inf.settled(reading(("dark", -36, 51), ("light", 160, -110), game="crokinole"), 4.0,
                            Motion(2.5, 3.2, (PocketActivity(0, 0.1, 3.2),), hole_hides=("dark",),
                                   ditch=((3.6, sector_angle(9)),), ditch_discs=ditch_after))
        assert [(o.type, o.piece) for o in after] == expected, ditch_after


def test_crokinole_a_valid_shots_20_set_aside_off_the_board_stays_a_20():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
    inf.settled(reading(("light", 250, 0), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    inf.settled(reading(("light", 262, 5), game="crokinole"), 2.0,
                Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.5),), hole_entries=(1.5,), hole_full=True,
                       ditch_discs=ditch_with()))
    after = inf.settled(reading(("light", 262, 5), ("light", 90, 40), game="crokinole"), 5.0,
                        Motion(2.9, 4.1, ditch_discs=ditch_with()))
    assert [(o.type, o.piece) for o in after] == [("shot", "light")]


def test_crokinole_a_disc_come_against_one_in_the_ditch_arrives_and_a_nudged_one_does_not():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(("dark", 0, 290), ("dark", 30, 10), ("light", 0, -100), game="crokinole"),
                0.0, Motion(0.0, None, ditch_discs=ditch_with(7)))
    # Dark's disc knocked into the ditch at 1.8 s comes to rest against the one lying there: a third of it shows.
    against = tuple(v + (0.27 if i == 8 else 0.0) for i, v in enumerate(ditch_with(7)))
    observations = inf.settled(reading(("dark", 30, 10), ("light", 0, -100), game="crokinole"), 2.5,
                               Motion(1.0, 1.1, ditch=((1.8, sector_angle(8)),), ditch_discs=against))
    assert ("off_board", "dark", 1.8) in [(o.type, o.piece, o.t_s) for o in observations]
    # Next, the dark disc by the hole is gone, the hole's region busy; in the ditch a disc lying there was
    # nudged from one sector into the next: no disc came there, so the dark one went into the hole.
    nudged = tuple(v - (0.4 if i == 8 else 0.0) + (0.4 if i == 9 else 0.0) for i, v in enumerate(against))
    observations = inf.settled(reading(("light", 0, -100), ("light", 80, 40), game="crokinole"), 5.0,
                               Motion(3.0, 3.1, (PocketActivity(0, 0.2, 3.5),), ditch=((3.6, sector_angle(9)),),
                                      ditch_discs=nudged))
    assert [(o.type, o.piece) for o in observations if o.type != "shot"] == [("sunk_20", "dark")]


def test_crokinole_a_disc_on_the_hole_brink_struck_across_the_hole_lands_on_the_far_side_not_in_the_hole():
    # As check clip 5108 at 221 s: a dark disc on the hole's brink, south of the centre; light's disc, set down
    # on the shooting line to the south (the ditch stirred there 0.9 s before the strike), knocks it across
    # the hole into the dark ditch to the north, where the count does not see it (a dark disc in a dark ditch).
    for set_down, expected in ((sector_angle(18), ("off_board", "dark")), (None, ("sunk_20", "dark"))):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5,
                           shooting_line_radius_mm=304.8)
        inf.settled(reading(("dark", 4, -23), ("light", -56, -234), game="crokinole"), 0.0,
                    Motion(0.0, None, ditch_discs=ditch_with()))
        stirred = ((0.9, set_down), (1.8, set_down)) if set_down is not None else ()
        motion = Motion(0.8, 1.8, (PocketActivity(0, 0.5, 2.1),), ditch=stirred + ((2.6, np.radians(97)),),
                        ditch_discs=ditch_with())
        observations = inf.settled(reading(("light", -56, -234), ("light", 6, -52), game="crokinole"), 3.1, motion)
        assert [(o.type, o.piece) for o in observations if o.type != "shot"] == [expected]


def test_crokinole_a_landing_seen_only_as_a_change_of_the_ditch_is_timed_by_it():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(("dark", 250, 0), ("light", 0, -100), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    # Against the frame the landing is no free motion: the ditch changed there at 2.0 s (the hand over
    # the ditch at the shooter's side before the strike changed it at 0.6 s).
    motion = Motion(0.5, 1.1, ditch_changes=((0.6, sector_angle(0)), (2.0, sector_angle(0))), ditch_discs=ditch_with(0))
    observations = inf.settled(reading(("light", 0, -100), ("light", 60, 30), game="crokinole"), 2.8, motion)
    assert ("off_board", "dark", 2.0) in [(o.type, o.piece, o.t_s) for o in observations]


def test_crokinole_a_disc_knocked_off_lands_no_sooner_than_it_could_get_to_the_ditch():
    # As check clip 5102 at 104 s: a dark disc by the centre, knocked off towards the far side; the ditch near
    # its bearing stirred at the strike (the shooter's hand), it landed a second later, away from its bearing.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, shooting_line_radius_mm=304.8)
    x_mm, y_mm = 58 * np.cos(np.radians(-18)), 58 * np.sin(np.radians(-18))
    inf.settled(reading(("dark", x_mm, y_mm), ("light", 150, 150), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    motion = Motion(2.9, 4.1, ditch=((4.17, np.radians(308)),),
                    ditch_changes=((4.17, np.radians(308)), (5.2, np.radians(112))), ditch_discs=ditch_with())
    observations = inf.settled(reading(("light", 150, 150), ("light", -30, 40), game="crokinole"), 5.5, motion)
    assert ("off_board", "dark", 5.2) in [(o.type, o.piece, o.t_s) for o in observations]


def test_crokinole_a_disc_on_the_outer_line_gone_before_the_next_shot_is_no_disc_moved_to_where_the_shot_lies():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    on_line = BoardReading("crokinole", (Piece("light", 0, -318, 15.9, 0.9, zone=0), Piece("dark", 100, 0, 15.9, 0.9, zone=10)))
    inf.settled(on_line, 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    # Taken off into the ditch at 0.8 s, the board not settled before light shoots at 2.0 s.
    after = BoardReading("crokinole", (Piece("light", 40, 60, 15.9, 0.9, zone=15), Piece("dark", 100, 0, 15.9, 0.9, zone=10)))
    observations = inf.settled(after, 3.5, Motion(0.8, 2.0, ditch_changes=((0.8, sector_angle(18)),),
                                                  ditch_discs=ditch_with(18)))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("off_board", "light", 0.8), ("shot", "light", 2.0)]


def test_crokinole_a_dark_disc_gone_where_the_hole_would_show_it_went_to_the_ditch_timed_by_the_motion_there():
    # A red hole shows a navy disc lying in it: gone with the hole's region busy and not counted coming
    # into a navy ditch, it went to the ditch, when the ditch beside it moved (sector 0, east, before the
    # hole's busiest moment: after it, the motion there would say it did not go into a dark hole either).
    for hides, expected in ((("dark",), ("sunk_20", "dark", 1.6)), ((), ("off_board", "dark", 1.4))):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
        inf.settled(reading(("dark", 40, 0), ("light", 0, 250), game="crokinole"), 0.0,
                    Motion(0.0, None, ditch_discs=ditch_with()))
        motion = Motion(1.0, 1.1, (PocketActivity(0, 0.3, 1.6),), ditch=((1.4, sector_angle(0)), (1.2, sector_angle(12))),
                        ditch_discs=ditch_with(), hole_hides=hides)
        observations = inf.settled(reading(("light", 0, 250), game="crokinole"), 2.5, motion)
        gone = [(o.type, o.piece, o.t_s) for o in observations if o.type != "shot"]
        assert gone == [expected], hides


def test_couronne_a_shooter_gone_after_its_strike_with_no_hand_since_jumped_off_and_with_one_was_picked_up():
    for hand, expected in ((False, [("shot", "shooter", None), ("off_board", "shooter", None)]),
                           (True, [("shot", "shooter", None)]), (None, [("shot", "shooter", None)])):
        inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
        inf.settled(reading(("pink", 0, 0), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
        after = reading(("pink", 30, 20), ("blue", 40, 0), game="couronne")
        observations = inf.settled(after, 3.0, Motion(0.5, 1.2, hand_after_strike=hand))
        assert kinds(observations) == expected, hand
        assert all(o.needs_review for o in observations if o.type == "off_board")


def test_a_striker_gone_with_a_pocket_stirred_a_little_or_on_a_carrom_board_is_not_called_jumped():
    for game, pockets in (("couronne", (PocketActivity(2, 0.02, 1.6),)), ("carrom", ())):
        stroke_piece = {"couronne": "shooter", "carrom": "striker"}[game]
        inf = EventInferer(game, pocket_centres_mm=CARROM_POCKETS)
        inf.settled(reading(("white", 0, 0), ("black", 40, 0), (stroke_piece, 0, -250), game=game), 0.0, None)
        after = reading(("white", 30, 20), ("black", 40, 0), game=game)
        observations = inf.settled(after, 3.0, Motion(0.5, 1.2, pockets, hand_after_strike=False))
        assert "off_board" not in [o.type for o in observations], game



def test_couronne_a_stroke_struck_before_the_board_settled_is_a_second_shot_held_for_review():
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("pink", 0, 0), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
    after = reading(("pink", 30, 20), ("blue", 40, 0), ("shooter", 0, 250), game="couronne")
    observations = inf.settled(after, 5.0, Motion(0.5, 1.2, hand_after_strike=False, later_strikes=(3.0,)))
    assert [(o.type, o.t_s, o.needs_review) for o in observations] == [("shot", 1.2, False), ("shot", 3.0, True)]


def test_couronne_a_shooter_read_again_after_two_strokes_did_not_jump_off():
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("pink", 0, 0), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
    after = reading(("pink", 30, 20), ("blue", 40, 0), ("shooter", 100, 250), game="couronne")
    observations = inf.settled(after, 5.0, Motion(0.5, 1.2, hand_after_strike=False, later_strikes=(3.0,)))
    assert "off_board" not in [o.type for o in observations]


def test_couronne_a_ring_gone_where_a_pocket_stirred_jumped_off_when_something_crossed_the_frame_beside_it():
    # As couronne clip 5114 at 38.3 s: a pink struck into the cushion beside pocket 2 stirs the pocket's region
    # as it passes, and flies off over the frame beside it. Without that crossing it dropped in; a crossing
    # at the far side, or before the strike (the shooter's hand), says nothing about it.
    pocketed = ("pocketed", "pink", 2)
    for flights, expected in ((((1.45, 393.0, 315.0),), ("off_board", "pink", None)), ((), pocketed),
                              (((1.45, -393.0, 0.0),), pocketed), (((1.1, 393.0, 315.0),), pocketed)):
        inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
        inf.settled(reading(("pink", 250, 250), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
        after = reading(("blue", 40, 0), ("shooter", 100, 200), game="couronne")
        observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(2, 0.3, 1.4),), frame_flights=flights))
        assert [k for k in kinds(observations) if k[0] != "shot"] == [expected], flights
        assert all(o.needs_review and o.reason == "jumped" for o in observations if o.type == "off_board")


def test_couronne_one_crossing_of_the_frame_is_one_piece_jumped_off():
    # Two pinks gone where pocket 2 stirred, one crossing of the frame beside it: one jumped, the other
    # dropped in. A second crossing there: both jumped.
    for flights, expected in ((((1.45, 393.0, 315.0),), ["off_board", "pocketed"]),
                              (((1.45, 393.0, 315.0), (1.6, 380.0, 330.0)), ["off_board", "off_board"])):
        inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
        inf.settled(reading(("pink", 250, 250), ("pink", 300, 280), ("blue", 40, 0), ("shooter", 0, -250),
                            game="couronne"), 0.0, None)
        after = reading(("blue", 40, 0), ("shooter", 100, 200), game="couronne")
        observations = inf.settled(after, 3.0, Motion(0.5, 1.2, (PocketActivity(2, 0.3, 1.4),), frame_flights=flights))
        gone = [o for o in observations if o.type != "shot"]
        assert sorted(o.type for o in gone) == expected, flights
        assert len({o.t_s for o in gone if o.reason == "jumped"}) == expected.count("off_board"), flights


def test_couronne_a_shooter_seen_flying_off_over_the_frame_jumped_off_though_a_pocket_stirred():
    # As couronne clip 5117 at 59.6 s: the shooter flew off over the south frame; a ring rolling past pocket 2
    # stirred it later. Without the crossing (or with one only before the strike) the shooter went in there.
    for flights, expected in ((((1.7, 135.0, -398.0),), ("off_board", "shooter", None)), ((), ("pocketed", "shooter", 2)),
                              (((1.0, 135.0, -398.0),), ("pocketed", "shooter", 2))):
        inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
        inf.settled(reading(("pink", 0, 0), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
        after = reading(("pink", 30, 20), ("blue", 40, 0), game="couronne")
        motion = Motion(0.5, 1.2, (PocketActivity(2, 0.3, 2.0),), hand_after_strike=False, frame_flights=flights)
        observations = inf.settled(after, 3.0, motion)
        assert [k for k in kinds(observations) if k[0] != "shot"] == [expected], flights


def test_a_piece_gone_is_not_credited_to_a_pocket_busiest_before_it_could_have_rolled_there():
    # Couronne: a pink ring 700 mm from pocket 1, which was busiest 0.17 s after the strike (the striking
    # hand by it): the ring could not have got there by then. It went off the board, once confirmed.
    far = (PocketActivity(1, 0.045, 1.37),)
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("pink", -22, 280), ("blue", 40, 0), ("shooter", 90, -250), game="couronne"), 0.0, None)
    gone = reading(("blue", 40, 0), ("shooter", 20, 300), game="couronne")
    assert "pocketed" not in [o.type for o in inf.settled(gone, 2.5, Motion(1.0, 1.2, far))]
    off = [o for o in inf.settled(gone, 3.5, Motion(3.0, None)) if o.type == "off_board"]
    assert [(o.piece, o.t_s, o.needs_review) for o in off] == [("pink", 1.2, True)]
    # Busiest 0.6 s after the strike, the same pocket could have taken it.
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("pink", -22, 280), ("blue", 40, 0), ("shooter", 90, -250), game="couronne"), 0.0, None)
    later = inf.settled(gone, 2.5, Motion(1.0, 1.2, (PocketActivity(1, 0.045, 1.8),)))
    assert ("pocketed", "pink", 1) in kinds(later)


def test_couronne_a_shooter_gone_with_a_pocket_stirred_only_before_its_strike_jumped_off():
    for peak_s, expected in ((0.7, True), (1.6, False)):
        inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
        inf.settled(reading(("pink", 0, 0), ("blue", 40, 0), ("shooter", 0, -250), game="couronne"), 0.0, None)
        after = reading(("pink", 30, 20), ("blue", 40, 0), game="couronne")
        # A hand by pocket 3 while aiming (0.7 s) is no pocket taking the shooter after its strike at 1.2 s.
        motion = Motion(0.5, 1.2, (PocketActivity(3, 0.012, peak_s),), hand_after_strike=False)
        observations = inf.settled(after, 3.0, motion)
        assert (("off_board", "shooter", None) in kinds(observations)) == expected, peak_s


def test_crokinole_a_disc_on_the_outer_line_taken_off_is_timed_by_the_first_change_of_the_ditch_there():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    on_line = BoardReading("crokinole", (Piece("light", 0, -318, 15.9, 0.9, zone=0), Piece("dark", 100, 0, 15.9, 0.9, zone=10)))
    inf.settled(on_line, 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    # Taken off at 0.8 s; the next shooter's hand crosses the ditch there at 1.5 s and again after the strike.
    changes = ((0.8, sector_angle(18)), (1.5, sector_angle(18)), (2.3, sector_angle(18)))
    after = BoardReading("crokinole", (Piece("light", 40, 60, 15.9, 0.9, zone=15), Piece("dark", 100, 0, 15.9, 0.9, zone=10)))
    observations = inf.settled(after, 3.5, Motion(1.4, 2.0, ditch_changes=changes, ditch_discs=ditch_with(18)))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("off_board", "light", 0.8), ("shot", "light", 2.0)]


def test_crokinole_a_disc_knocked_off_not_counted_in_the_ditch_is_timed_by_a_change_near_it_not_motion_afar():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(("light", 0, -250), ("dark", 0, 100), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with(17, 17)))
    # Come against two discs lying south (sector 18): too little of it shows to be counted. The ditch
    # changed there at 2.2 s; the only free motion after the strike was the shooter's side (sector 3).
    motion = Motion(1.0, 1.1, ditch=((1.15, sector_angle(3)),),
                    ditch_changes=((0.6, sector_angle(3)), (2.2, sector_angle(18))), ditch_discs=ditch_with(17, 17))
    observations = inf.settled(reading(("dark", 0, 100), ("dark", 80, 60), game="crokinole"), 3.0, motion)
    assert ("off_board", "light", 2.2) in [(o.type, o.piece, o.t_s) for o in observations]


def test_a_pale_coin_gone_from_beside_a_pocket_that_barely_stirred_dropped_in_and_the_others_kept_their_identity():
    # Three whites by pocket 2 (347.75, 347.75): the stroke pushed one 11 mm, another 96 mm, and the one
    # nearest the pocket went in, changing its region too little to make it busy (a glimpse at 1.9 s).
    whites = [("white", 302, 247), ("white", 215, 124), ("white", 321, 277)]
    for glimpse_s, expected in ((1.9, [("pocketed", "white", 2)]), (None, [])):
        inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS, hole_radius_mm=22.25)
        inf.settled(reading(*whites, ("striker", 80, -250)), 0.0, None)
        after = reading(("white", 302, 258), ("white", 309, 220), ("striker", 211, 241))
        pockets = tuple(PocketActivity(i, 0.0, None, glimpse_s if i == 2 else None) for i in range(4))
        observations = inf.settled(after, 2.6, Motion(1.0, 1.5, pockets))
        assert [k for k in kinds(observations) if k[0] != "shot"] == expected, glimpse_s
        if glimpse_s is not None:
            assert observations[-1].t_s == 1.9 and observations[-1].needs_review
        # Either way the white missing is the one by the pocket, not one pushed further from it.
        missing = [(t.x_mm, t.y_mm) for t in inf._tracks if t.kind == "white" and t.missed]
        assert missing == ([] if glimpse_s is not None else [(321, 277)]), glimpse_s


def test_a_piece_gone_and_missed_again_where_the_picture_stayed_empty_is_confirmed_off_the_board():
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(*COURONNE_BASE, game="couronne"), 0.0, None)
    gone = reading(("blue", 40, 0), ("shooter", 100, -250), game="couronne")
    assert "off_board" not in [o.type for o in inf.settled(gone, 2.0, Motion(1.0, 1.1))]
    # The next view shows the pink's spot as the last one did (empty): it is still gone.
    still_empty = Motion(2.5, None, unchanged=lambda xy, r: np.ones(len(xy), bool))
    off = [(o.type, o.piece) for o in inf.settled(gone, 3.0, still_empty) if o.type == "off_board"]
    assert off == [("off_board", "pink")]


def test_the_queen_struck_off_its_centre_spot_is_the_same_queen_and_once_pocketed_is_placed_when_put_back():
    # The spot is printed in the queen's colour: the picture there looks the same with the queen gone.
    spot_unchanged = lambda xy, r: np.hypot(xy[:, 0], xy[:, 1]) < 4.0  # noqa: E731
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS, hole_radius_mm=22.25)
    inf.settled(reading(("queen", 0, 0), ("white", 100, 0), ("striker", 0, -250)), 0.0, None)
    struck = inf.settled(reading(("queen", -250, 240), ("white", 100, 0), ("striker", 50, 100)), 3.0,
                         Motion(1.0, 1.2, unchanged=spot_unchanged))
    assert [o.type for o in struck] == ["shot"]
    assert [(round(t.x_mm), round(t.y_mm)) for t in inf._tracks if t.kind == "queen"] == [(-250, 240)]
    pocketed = inf.settled(reading(("white", 100, 0), ("striker", 0, 250)), 6.0,
                           Motion(4.0, 4.2, (PocketActivity(3, 0.3, 4.6),), unchanged=spot_unchanged))
    assert ("pocketed", "queen", 3) in kinds(pocketed)
    assert inf.settled(reading(("queen", 0, 0), ("white", 100, 0)), 8.0, Motion(7.0, None, unchanged=spot_unchanged)) == []
    # Seen there again at the next reading: put back at 7.0 s.
    back = inf.settled(reading(("queen", 0, 0), ("white", 100, 0), ("striker", 0, -250)), 9.0,
                       Motion(8.5, None, unchanged=spot_unchanged))
    assert [(o.type, o.piece, o.t_s) for o in back] == [("placed", "queen", 7.0)]


def test_a_pocketed_queen_first_read_after_the_next_stroke_was_put_back_before_it_and_a_coin_so_read_was_not():
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS, hole_radius_mm=22.25)
    inf.settled(reading(("queen", 250, 240), ("white", 100, 0), ("striker", 0, -250)), 0.0, None)
    pocketed = inf.settled(reading(("white", 100, 0), ("striker", 0, 250)), 3.0,
                           Motion(1.0, 1.2, (PocketActivity(3, 0.3, 1.6),)))
    assert ("pocketed", "queen", 3) in kinds(pocketed)
    # Put back on the centre and struck off it before the board settled: first read after that stroke.
    struck = inf.settled(reading(("queen", -30, 40), ("white", 100, 0), ("black", 60, -90), ("striker", 10, 20)),
                         6.0, Motion(4.0, 5.2))
    assert [o.type for o in struck] == ["shot"]
    confirmed = inf.settled(reading(("queen", -30, 40), ("white", 100, 0), ("black", 60, -90)), 7.0,
                            Motion(6.5, None))
    assert [(o.type, o.piece, o.t_s) for o in confirmed] == [("placed", "queen", 4.0)]


def test_couronne_a_ring_gone_then_one_of_its_colour_put_in_the_centre_is_confirmed_off_before_the_next_stroke():
    empty_where_it_lay = lambda xy, r: np.hypot(xy[:, 0] + 22, xy[:, 1] - 280) < 4.0  # noqa: E731
    inf = EventInferer("couronne", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("pink", -22, 280), ("blue", 40, 0), ("shooter", 90, -250), game="couronne"), 0.0, None)
    gone = reading(("blue", 40, 0), ("shooter", 20, 300), game="couronne")
    assert "off_board" not in [o.type for o in inf.settled(gone, 2.5, Motion(1.0, 1.2))]
    # Put in the centre circle by hand: the jumped ring is confirmed gone now, not after the next stroke.
    placed = reading(("blue", 40, 0), ("pink", -35, 30), game="couronne")
    observations = inf.settled(placed, 4.0, Motion(3.0, None, unchanged=empty_where_it_lay))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("off_board", "pink", 1.2)]


def test_crokinole_a_dark_disc_seen_landing_in_a_dark_ditch_after_crossing_the_hole_is_no_hidden_20():
    # A dark hole, a dark ditch where nothing is counted. Light's shot crosses the hole (busiest at 1.6 s);
    # the dark disc north (bearing 90 degrees) moves in the ditch beside it at 2.0 s: it went there.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(("dark", 9, 86), ("light", 0, -250), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    motion = Motion(1.0, 1.1, (PocketActivity(0, 0.3, 1.6),), ditch=((1.2, sector_angle(18)), (2.0, sector_angle(7))),
                    ditch_discs=ditch_with(), hole_hides=("dark",))
    observations = inf.settled(reading(("light", 30, -40), game="crokinole"), 3.0, motion)
    assert [(o.type, o.piece, o.t_s) for o in observations if o.type != "shot"] == [("off_board", "dark", 2.0)]
    # The shot disc itself never read, seen landing across the board after crossing the hole: no 20 either.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
    inf.settled(reading(("light", 100, 0), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    motion = Motion(1.0, 1.1, (PocketActivity(0, 0.6, 1.4),), ditch=((1.2, sector_angle(8)), (2.1, sector_angle(19))),
                    ditch_discs=ditch_with(), hole_hides=("dark",))
    observations = inf.settled(reading(("light", 100, 0), game="crokinole"), 3.0, motion)
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("shot", "dark", 1.1), ("off_board", "dark", 2.1)]


def test_crokinole_a_20_hidden_in_a_dark_hole_fell_in_when_the_hole_stirred_after_the_strike_not_at_a_hand_before():
    # As crokinole clip 5109 at 64.6 s: a hand took the last shot's 20 out (the hole's busiest spell, before
    # the strike); the next shot knocked a dark disc into the dark hole at 3.1 s.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(reading(("dark", 55, -57), ("dark", -20, 44), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    hole = PocketActivity(0, 0.9, 0.6, 0.6, (PocketSpell(0.6, 0.55), PocketSpell(3.1, 0.35)))
    motion = Motion(0.4, 2.8, (hole,), ditch_discs=ditch_with(), hole_hides=("dark",))
    observations = inf.settled(reading(("light", 79, -73), ("dark", -20, 44), game="crokinole"), 3.5, motion)
    assert [(o.type, o.piece, o.t_s) for o in observations if o.type != "shot"] == [("sunk_20", "dark", 3.1)]


def test_crokinole_a_disc_the_rules_do_not_take_off_was_knocked_off_by_the_shot_though_a_hand_passed_over_it():
    # As crokinole clip 5109 at 96.5 s: a hand reaching for the 20 in the hole passed over a disc of the
    # 10 zone (its spot last looked as before at 0.5 s); the shot at 1.1 s knocked it into the ditch at 1.8 s.
    # A disc on the outer line is taken off by hand (rules 4a): then the hand's time is its going.
    for zone, expected_s in ((10, 1.8), (0, 0.5)):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
        inf.settled(BoardReading("crokinole", (Piece("dark", 0, 111, 15.9, 0.9, zone=zone),
                                               Piece("light", 200, 0, 15.9, 0.9, zone=10))), 0.0,
                    Motion(0.0, None, ditch_discs=ditch_with()))
        motion = Motion(0.3, 1.1, ditch=((1.8, sector_angle(6)),), ditch_discs=ditch_with(6),
                        changed_at=lambda centres, radii: np.full(len(centres), 0.5))
        after = BoardReading("crokinole", (Piece("light", 200, 0, 15.9, 0.9, zone=10),
                                           Piece("light", -3, 84, 15.9, 0.9, zone=15)))
        gone = [(o.type, o.piece, o.t_s) for o in inf.settled(after, 2.5, motion) if o.type != "shot"]
        assert gone == [("off_board", "dark", expected_s)], zone


def test_crokinole_the_disc_waiting_on_the_shooting_line_beyond_the_outer_line_was_shot_not_taken_off():
    # As crokinole clip 5123 at 161 s: a disc lies on the shooting line (zone 0, as one touching the outer
    # line) until its shot; gone from there after a strike, it is the disc read where the shot stopped.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5,
                       shooting_line_radius_mm=304.8)
    dark = Piece("dark", -68, 129, 15.9, 0.9, zone=10)
    inf.settled(BoardReading("crokinole", (dark,)), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    waiting = BoardReading("crokinole", (dark, Piece("light", 34, -303, 15.9, 0.9, zone=0)))
    assert inf.settled(waiting, 1.0, Motion(0.5, None, ditch_discs=ditch_with())) == []
    shot = BoardReading("crokinole", (Piece("dark", -80, 150, 15.9, 0.9, zone=10),
                                      Piece("light", -44, 52, 15.9, 0.9, zone=15)))
    observations = inf.settled(shot, 3.0, Motion(1.5, 2.0, ditch_discs=ditch_with()))
    assert [(o.type, o.piece) for o in observations] == [("shot", "light")]


def test_crokinole_a_shot_onto_a_board_with_no_opponent_disc_that_stops_outside_the_15_line_is_taken_off():
    # As crokinole clip 5123 at 185 s (NCA 3b, 3c): dark's first shot of a round stopped in the 5 zone; a
    # hand took it off (its run of motion under the hand is no shot). One touching the 15 line stays.
    for where, stays in (((-60, -202), False), ((0, -110), True)):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5,
                           fifteen_reach_mm=102.35, first_shooter="dark")
        inf.settled(BoardReading("crokinole", ()), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
        shot = BoardReading("crokinole", (Piece("dark", *where, 15.9, 0.9, zone=5),))
        assert [o.type for o in inf.settled(shot, 2.0, Motion(1.0, 1.1, ditch_discs=ditch_with()))] == ["shot"]
        gone = inf.settled(BoardReading("crokinole", ()), 4.0, Motion(3.0, 3.1, ditch_discs=ditch_with()))
        # Valid, it stayed for the next shot: gone now, that shot knocked it off.
        assert [(o.type, o.piece) for o in gone if o.type == "shot"] == ([("shot", "light")] if stays else []), where
        assert ("off_board", "dark") in [(o.type, o.piece) for o in gone]


def test_crokinole_discs_cleared_off_while_the_next_round_is_shot_hid_no_20_in_the_hole():
    # As crokinole clip 5109 at 54 s: the hands clearing the board stirred the hole; the next round's first
    # disc was shot before the board settled.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    discs = [("dark", -91, 213), ("light", -87, -17), ("dark", -71, -199), ("light", -25, -276), ("light", 4, -103),
             ("dark", -11, 206), ("light", -86, -153)]
    inf.settled(reading(*discs, game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    inf.round_ended = True
    motion = Motion(0.5, 5.0, (PocketActivity(0, 0.9, 2.2),), ditch=((2.0, sector_angle(6)),),
                    ditch_discs=ditch_with(), hole_hides=("dark",))
    observations = inf.settled(reading(("dark", 0, 34), game="crokinole"), 6.0, motion)
    assert "sunk_20" not in [o.type for o in observations]


@pytest.mark.parametrize("game", ["carrom", "couronne"])
def test_a_piece_whose_spot_looks_as_it_did_takes_no_piece_from_afar_for_itself_moved(game):
    # A circle of the print once read as a piece and no longer (its spot never changes) lies nearer a piece
    # come to rest far off than the piece that went there: that piece is the one whose spot changed, moved.
    light, stroke_piece = ("white", "striker") if game == "carrom" else ("pink", "shooter")
    inf = EventInferer(game, pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading((light, 37, -19), (light, 303, 0), (stroke_piece, 0, -250), game=game), 0.0, None)
    print_spot = lambda xy, r: np.hypot(xy[:, 0] - 37, xy[:, 1] + 19) < 1  # noqa: E731
    after = reading((light, -15, -341), (stroke_piece, 200, -250), game=game)
    assert [o.type for o in inf.settled(after, 2.0, Motion(1.0, 1.1, unchanged=print_spot))] == ["shot"]
    assert [o.type for o in inf.settled(after, 3.0, Motion(2.5, None, unchanged=print_spot))] == []
    assert sorted((t.x_mm, t.y_mm) for t in inf._tracks if t.kind == light and t.missed == 0) == [(-15, -341), (37, -19)]


def test_a_carrom_coin_never_read_again_where_the_picture_never_changed_is_lost_and_takes_no_pocket_later():
    # A circle of the print read as a white at the first reading only: its spot never changes, so it was
    # kept as a coin the reader missed; never read again, it is lost, and a later stroke stirring the
    # pocket beside it does not make it pocketed.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(*BASE, ("white", 250, 250)), 0.0, None)
    nothing_changed = lambda xy, r: np.ones(len(xy), bool)  # noqa: E731
    for k in range(1, LOST_UNREAD + 1):
        assert inf.settled(reading(*BASE), 2.0 * k, Motion(2.0 * k - 1, None, unchanged=nothing_changed)) == []
    assert inf.kinds_on_board()["white"] == 1
    struck = reading(*BASE[:3], ("striker", 120, 200))
    busy = (PocketActivity(2, 0.3, 20.6),)
    everything_changed = lambda xy, r: np.zeros(len(xy), bool)  # noqa: E731
    observations = inf.settled(struck, 22.0, Motion(19.0, 20.0, busy, unchanged=everything_changed))
    assert kinds(observations) == [("shot", "striker", None)]


@pytest.mark.parametrize("unsure_there", [True, False])
def test_a_coin_unread_where_the_picture_never_changed_is_kept_while_it_shows_as_an_unsure_coin_there(unsure_there):
    # Simulated clip 5205 at 187 to 194 s (1080p): a pale white, read no more, showed as an unsure coin where it lay
    # (4.5 mm off) and where it was struck to; lost after three readings, its pocketing at 193.7 s went unreported.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(*BASE, ("white", 250, 250)), 0.0, None)
    nothing_changed = lambda xy, r: np.ones(len(xy), bool)  # noqa: E731
    unsure = (Piece("white", 254.5, 251, 15.5, 0.8),) if unsure_there else ()
    for k in range(1, LOST_UNREAD + 1):
        unread = replace(reading(*BASE), unsure=unsure)
        assert inf.settled(unread, 2.0 * k, Motion(2.0 * k - 1, None, unchanged=nothing_changed)) == []
    struck = reading(*BASE[:3], ("striker", 120, 200))
    busy = (PocketActivity(2, 0.3, 20.6),)
    everything_changed = lambda xy, r: np.zeros(len(xy), bool)  # noqa: E731
    observations = inf.settled(struck, 22.0, Motion(19.0, 20.0, busy, unchanged=everything_changed))
    assert (("pocketed", "white", 2) in kinds(observations)) == unsure_there


def test_a_coin_read_again_where_a_lost_one_lay_is_that_one_and_not_the_one_gone_into_the_pocket_moved_there():
    # As simulated carrom clip 5144 at 31.4 s: a pale white lost (never read again where nothing changed) is read
    # again in its place as another white drops into the pocket beside which it lay.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    pale, by_pocket = ("white", 42, -251), ("white", 300, -300)
    inf.settled(reading(*BASE, pale, by_pocket), 0.0, None)
    nothing_changed = lambda xy, r: np.ones(len(xy), bool)  # noqa: E731
    for k in range(1, LOST_UNREAD + 1):
        unread = inf.settled(reading(*BASE, by_pocket), 2.0 * k, Motion(2.0 * k - 1, None, unchanged=nothing_changed))
        assert unread == []
    assert inf.kinds_on_board()["white"] == 2
    struck = reading(*BASE[:3], ("striker", 120, 200), ("white", 43, -251))
    busy = (PocketActivity(1, 0.3, 20.6),)
    # The picture changed where the coin by the pocket lay, and nowhere else.
    left = lambda xy, r: np.hypot(xy[:, 0] - 300, xy[:, 1] + 300) > 20  # noqa: E731
    observations = inf.settled(struck, 22.0, Motion(19.0, 20.0, busy, unchanged=left))
    assert kinds(observations) == [("shot", "striker", None), ("pocketed", "white", 1)]
    assert inf.kinds_on_board()["white"] == 2


def test_two_coins_gone_in_a_break_as_two_pockets_stirred_went_one_into_each_and_the_striker_into_neither():
    # As simulated carrom clip 5143 at 2.3 s: the striker unread after the break, two blacks gone, pockets 2 and 3
    # each stirred once. Both blacks given to the busier pocket left the other's stir to the striker.
    inf = EventInferer("carrom", pocket_centres_mm=CARROM_POCKETS)
    inf.settled(reading(("white", 0, 0), ("black", 0, 30), ("black", 27, -46), ("queen", -40, 0),
                        ("striker", 0, -250)), 0.0, None)
    stirred = tuple(PocketActivity(pocket, energy, t_s, t_s, (PocketSpell(t_s, energy),))
                    for pocket, energy, t_s in ((2, 0.45, 2.27), (3, 0.36, 2.33)))
    everything_changed = lambda xy, r: np.zeros(len(xy), bool)  # noqa: E731
    after = reading(("white", 120, 90), ("queen", -160, 40))
    observations = inf.settled(after, 3.2, Motion(1.4, 1.5, stirred, unchanged=everything_changed))
    assert sorted(o.pocket for o in observations if o.type == "pocketed" and o.piece == "black") == [2, 3]
    assert not [o for o in observations if o.piece == "striker" and o.type == "pocketed"]


def test_two_coins_gone_where_one_pocket_stirred_once_the_one_without_a_stir_of_its_own_is_held_for_review():
    # As simulated carrom clip 5143 at 5.7 s: a black dropped in, and a pale white was no longer read.
    inf = inferer()
    once = (PocketActivity(2, 0.33, 2.1, 2.1, (PocketSpell(2.1, 0.33),)),)
    everything_changed = lambda xy, r: np.zeros(len(xy), bool)  # noqa: E731
    after = reading(("queen", -40, 0), ("striker", 100, 80))
    observations = inf.settled(after, 3.0, Motion(1.0, 1.2, once, unchanged=everything_changed))
    pocketed = [o for o in observations if o.type == "pocketed"]
    assert sorted(o.piece for o in pocketed) == ["black", "white"]
    assert sorted(o.needs_review for o in pocketed) == [False, True]


def test_crokinole_a_disc_come_into_the_hole_with_no_strike_seen_was_shot_when_the_faint_motion_says():
    # A pale disc on a pale board sets no strike's motion going: the hole taking it says a shot was played.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="light")
    inf.settled(reading(("light", 250, 0), game="crokinole"), 0.0, None)
    same = reading(("light", 250, 0), game="crokinole")
    observations = inf.settled(same, 3.0, Motion(1.0, None, hole_entries=(2.4,), hole_full=True, unseen_strike_s=1.9))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("shot", "light", 1.9), ("sunk_20", "light", 2.4)]
    # Nothing came into the hole and no disc came in: faint motion alone is no shot.
    assert inf.settled(same, 5.0, Motion(4.0, None, unseen_strike_s=4.5)) == []


def test_crokinole_a_shot_disc_seen_with_no_strike_is_timed_by_the_faint_motion_not_the_hand_reaching_in():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="light")
    inf.settled(reading(game="crokinole"), 0.0, None)
    shot = reading(("light", -66, -81), game="crokinole")
    observations = inf.settled(shot, 3.0, Motion(1.0, None, unseen_strike_s=2.2))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("shot", "light", 2.2)]


def test_crokinole_a_pale_shot_disc_come_to_rest_where_the_picture_hardly_changed_is_the_shot_disc_not_gone_off():
    # As tuning clip 5003 at 216.7 s: the light shot stops by the hole, a cream board showing it barely.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="dark")
    inf.settled(reading(("light", -31, 26), ("dark", 45, 51), game="crokinole"), 0.0, None)
    inf.settled(reading(("light", -31, 26), ("dark", 45, 51), ("dark", 120, 150), game="crokinole"), 1.0,
                Motion(0.2, 0.5))
    after = reading(("light", -31, 26), ("light", 0, 26), ("dark", 45, 51), ("dark", 120, 150), game="crokinole")
    observations = inf.settled(after, 3.0, Motion(1.5, 2.0, unchanged=picture_unchanged_at((0, 26))))
    assert [(o.type, o.piece) for o in observations] == [("shot", "light")]
    # A disc of the colour not shooting, read where nothing changed, was missed before: the shot disc went off.
    late = reading(("light", -31, 26), ("light", 0, 26), ("dark", 45, 51), ("dark", 120, 150), ("light", -90, -90),
                   game="crokinole")
    observations = inf.settled(late, 5.0, Motion(3.5, 4.0, ditch=((4.6, 1.0),),
                                                 unchanged=picture_unchanged_at((-90, -90))))
    assert [(o.type, o.piece) for o in observations] == [("shot", "dark"), ("off_board", "dark")]


def test_crokinole_a_shot_disc_gone_off_is_timed_by_the_ditch_even_when_the_hole_stirred_after_it_landed():
    # As tuning clip 5003 at 34 s: the light shot knocks a dark disc off (the dark ditch counts it not) and lands
    # in the ditch itself at 34.97 s, which the dark disc's nearest bearing takes; the hole barely stirs at 35.03 s.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="light")
    inf.settled(reading(("dark", 90, 227), ("dark", 53, 261), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    stirred = (PocketActivity(0, 0.01, 35.03),)
    observations = inf.settled(reading(("dark", 53, 261), game="crokinole"), 35.4,
                               Motion(33.0, 34.1, stirred, ditch=((34.97, sector_angle(7)),),
                                      ditch_discs=ditch_with(7)))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [
        ("shot", "light", 34.1), ("off_board", "dark", 34.97), ("off_board", "light", 34.97)]


def test_crokinole_a_pale_disc_on_the_outer_line_not_read_again_is_off_though_the_picture_there_did_not_change():
    # As check clip 5100 at 194.9 s: a light disc left on the outer line is lifted off a cream board, unseen.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    on_line = BoardReading("crokinole", (Piece("light", -307, -53, 15.9, 0.9, zone=0),
                                         Piece("dark", 100, 0, 15.9, 0.9, zone=10)))
    inf.settled(on_line, 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
    lifted = BoardReading("crokinole", (Piece("dark", 100, 0, 15.9, 0.9, zone=10),))
    unchanged = picture_unchanged_at((-307, -53))
    observations = inf.settled(lifted, 1.3, Motion(0.9, None, ditch_changes=((0.9, sector_angle(13)),),
                                                    ditch_discs=ditch_with(13), unchanged=unchanged))
    assert [(o.type, o.piece, o.t_s) for o in observations] == [("off_board", "light", 0.9)]
    # A disc inside the outer line not read where the picture did not change is still there.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(BoardReading("crokinole", (Piece("light", -200, -53, 15.9, 0.9, zone=5),)), 0.0, None)
    unchanged = picture_unchanged_at((-200, -53))
    assert inf.settled(BoardReading("crokinole", ()), 1.3, Motion(0.9, None, unchanged=unchanged)) == []


def test_crokinole_print_read_as_a_disc_on_the_outer_line_and_not_again_is_no_disc_taken_off():
    # As crokinole clip 5116 at 22.2 s: where the ditch's edge meets the outer line, a disc was read where the
    # picture never changed, and not read two readings later: nothing was there to take off.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5)
    inf.settled(BoardReading("crokinole", (Piece("dark", 100, 0, 15.9, 0.9, zone=10),)), 0.0, None)
    both = BoardReading("crokinole", (Piece("light", -259, -178, 15.7, 0.7, zone=0),
                                      Piece("dark", 100, 0, 15.9, 0.9, zone=10)))
    unchanged = picture_unchanged_at((-259, -178), (100, 0))
    assert inf.settled(both, 1.0, Motion(0.5, None, unchanged=unchanged)) == []
    assert inf.settled(both, 2.0, Motion(1.5, None, unchanged=unchanged)) == []
    alone = BoardReading("crokinole", (Piece("dark", 100, 0, 15.9, 0.9, zone=10),))
    for t_s in (3.0, 4.0, 5.0):
        assert inf.settled(alone, t_s, Motion(t_s - 0.5, None, unchanged=unchanged)) == []
    # Not read again for LOST_UNREAD readings, it is forgotten: a hand passing over its spot later takes nothing off.
    assert inf.settled(alone, 6.0, Motion(5.5, None, unchanged=picture_unchanged_at((100, 0)))) == []


def test_crokinole_discs_the_rules_take_off_under_a_hand_are_no_shot_though_the_hand_stirred_the_board():
    # A 20 taken out of the hole: the hole looked full at the last reading and is empty now.
    inf = crokinole_inferer(("light", 250, 0))
    inf.settled(reading(("light", 250, 0), game="crokinole"), 2.0,
                Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.5),), hole_entries=(1.5,), hole_full=True))
    taken = inf.settled(reading(("light", 250, 0), game="crokinole"), 4.0, Motion(2.8, 3.0, hole_full=False))
    assert taken == []
    # A disc left touching the outer line taken off into the ditch: its removal, no shot.
    inf = crokinole_inferer(("light", 250, 0))
    on_line = BoardReading("crokinole", (Piece("light", 250, 0, 15.5, 0.9), Piece("dark", 0, 290, 15.5, 0.9, zone=0)),
                           {})
    inf.settled(on_line, 2.0, Motion(1.0, 1.1))
    removed = inf.settled(reading(("light", 250, 0), game="crokinole"), 4.0,
                          Motion(2.8, 3.0, ditch=((3.2, np.pi / 2),)))
    assert [(o.type, o.piece, o.t_s) for o in removed] == [("off_board", "dark", 3.2)]
    # The same disc gone while another came in from the shooting line: a shot that knocked it off.
    inf = crokinole_inferer(("light", 250, 0))
    inf.settled(on_line, 2.0, Motion(1.0, 1.1))
    shot = inf.settled(reading(("light", 250, 0), ("light", 60, 200), game="crokinole"), 4.0,
                       Motion(2.8, 3.0, ditch=((3.2, np.pi / 2),)))
    assert [o.type for o in shot] == ["shot", "off_board"]


def test_crokinole_a_board_cleared_after_the_rounds_last_shot_is_no_shot_though_the_hands_stirred_it():
    discs = [("light", 60, 0), ("dark", -60, 20), ("dark", 0, 110), ("light", 30, -90)]
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),))
    inf.settled(reading(*discs, game="crokinole"), 0.0, None)
    inf.round_ended = True
    assert inf.settled(reading(game="crokinole"), 2.0, Motion(1.0, 1.2)) == []


def test_crokinole_the_next_rounds_first_shot_struck_before_the_cleared_board_settled_is_a_shot():
    # As crokinole clip 5109: the hands cleared the board and dark shot at once, the board never still between.
    discs = [("light", 60, 0), ("dark", -60, 20), ("dark", 0, 110), ("light", 30, -90)]
    for after, expected in ((reading(("dark", -40, 95), game="crokinole"), [("shot", "dark", 5.1)]),
                            (reading(("dark", -20, 300), game="crokinole"), [])):  # set down, not yet shot
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), shooting_line_radius_mm=304.8)
        inf.settled(reading(*discs, game="crokinole"), 0.0, None)
        inf.round_ended = True
        observations = inf.settled(after, 6.0, Motion(1.0, 5.1))
        assert [(o.type, o.piece, o.t_s) for o in observations] == expected


def test_crokinole_a_disc_knocked_off_after_an_invalid_shot_s_removal_is_no_removal_but_a_shot():
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), first_shooter="dark")
    inf.settled(reading(("light", 250, 0), ("dark", 0, 200), game="crokinole"), 0.0, None)
    # Dark's shot touches no light disc (invalid, 3c) and lies at (-100, 100); it is taken off by hand.
    inf.settled(reading(("light", 250, 0), ("dark", 0, 200), ("dark", -100, 100), game="crokinole"), 2.0,
                Motion(1.0, 1.1))
    inf.settled(reading(("light", 250, 0), ("dark", 0, 200), game="crokinole"), 4.0, Motion(3.0, None))
    # Light's shot knocks the other dark disc off and goes off itself: a shot, not that removal again.
    shot = inf.settled(reading(("light", 250, 0), game="crokinole"), 6.0,
                       Motion(5.0, 5.1, ditch=((5.6, np.pi / 2),)))
    assert [(o.type, o.piece) for o in shot][:1] == [("shot", "light")]


def picture_changed_at(*spots):
    """The picture's word on when each spot changed for good, as the gate gives it: (x_mm, y_mm, t_s) each."""
    def changed_at(centres_mm, radii_mm):
        return np.array([next((t_s for sx, sy, t_s in spots if abs(x - sx) < 1 and abs(y - sy) < 1), np.nan)
                         for x, y in centres_mm])
    return changed_at


def test_coins_put_back_one_after_another_are_each_placed_when_the_hand_came_over_their_spot():
    # As carrom clip 5149: two blacks put back by two hands in a row, the board never still between.
    inf = inferer()
    placed = reading(*BASE, ("black", 0, 60), ("black", 50, 24))
    motion = Motion(1.0, None, changed_at=picture_changed_at((0, 60, 1.3), (50, 24, 2.4)))
    assert inf.settled(placed, 3.0, motion) == []
    observations = inf.settled(placed, 4.0, Motion(3.5, None))
    assert sorted((o.type, o.t_s) for o in observations) == [("placed", 1.3), ("placed", 2.4)]


def test_a_coin_put_back_just_before_a_stroke_the_board_never_settled_between_is_placed():
    # As carrom clip 5155: the hand that set the due down left as the striking hand came in.
    inf = inferer()
    after = reading(*BASE[:3], ("black", -43, 22), ("striker", 80, -200))
    for changed_at, expected in ((picture_changed_at((-43, 22, 1.5)), [("placed", "black", None)]),
                                 (picture_changed_at((-43, 22, 3.4)), [])):  # turned up where the stroke moved things
        inf = inferer()
        inf.settled(after, 5.0, Motion(1.0, 3.0, changed_at=changed_at))
        observations = inf.settled(after, 6.0, Motion(5.5, None))
        assert kinds(observations) == expected


def test_a_coin_not_read_beside_a_stirred_pocket_is_kept_only_where_its_spot_is_clearly_as_it_was():
    # Simulated clip 5212 at 84.5 s (1080p): a pale white struck off a pale base line into a pocket left its spot
    # looking much as before (correlation 0.93, face change 19.7): it was kept as unread, and its pocketing lost.
    as_it_was = picture_unchanged_at((0, 0))
    for clearly, expected in ((picture_unchanged_at(), [("pocketed", "white", 2)]), (as_it_was, [])):
        inf = inferer()
        after = reading(*BASE[1:3], ("striker", 90, 80))
        motion = Motion(1.0, 1.2, (PocketActivity(2, 0.3, 1.7),), unchanged=as_it_was, clearly_unchanged=clearly)
        assert [k for k in kinds(inf.settled(after, 2.0, motion)) if k[0] != "shot"] == expected


def test_crokinole_a_disc_taken_off_by_hand_before_the_next_shot_is_timed_by_its_spot_not_the_shot():
    # As crokinole clip 5121: an invalid shot's disc taken off, then the next shot knocked a disc off,
    # the board never still between.
    inf = crokinole_inferer(("dark", -168, 37), ("light", 50, 50))
    invalid = reading(("dark", 179, -54), ("dark", -168, 37), ("light", 50, 50), game="crokinole")
    assert [o.type for o in inf.settled(invalid, 0.8, Motion(0.2, 0.3))] == ["shot"]  # touched no light disc
    after = reading(("light", 50, 50), ("light", -120, 30), game="crokinole")
    changed_at = picture_changed_at((179, -54, 1.2), (-168, 37, 2.7))
    observations = inf.settled(after, 4.0, Motion(1.0, 2.5, changed_at=changed_at))
    assert sorted((o.t_s, o.type, o.piece) for o in observations) == [
        (1.2, "off_board", "dark"), (2.5, "off_board", "dark"), (2.5, "shot", "light")]


def test_crokinole_a_shot_that_grazed_an_opponent_disc_is_valid_and_its_20_stays():
    # As crokinole clip 5124: the light disc went into the hole after nudging the dark one 6 mm, the picture
    # there hardly changed. Its 20 set aside off the board is no 20 taken out after an invalid shot (3a, 3c).
    for unchanged, removed in ((picture_unchanged_at((100, 50)), []), (picture_unchanged_at(), [])):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="light")
        inf.settled(reading(("dark", 100, 50), game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with()))
        nudged = reading(("dark", 105, 53), game="crokinole")
        shot = inf.settled(nudged, 2.0, Motion(1.0, 1.1, (PocketActivity(0, 0.2, 1.5),), hole_entries=(1.5,),
                                               hole_full=True, ditch_discs=ditch_with(), unchanged=unchanged))
        assert [(o.type, o.piece) for o in shot] == [("shot", "light"), ("sunk_20", "light")]
        assert inf.settled(nudged, 3.5, Motion(2.9, None, ditch_discs=ditch_with())) == removed


def test_crokinole_a_disc_counted_in_the_ditch_with_nothing_seen_there_does_not_explain_one_gone_into_a_dark_hole():
    # As crokinole clip 5114: light's shot knocked a dark disc into the dark hole; the ditch's count rose by a
    # third of a disc in a sector where nothing moved or changed.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
    inf.settled(reading(("light", -76, -129), ("dark", 18, -51), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    after = reading(("light", -76, -129), ("light", 13, -79), game="crokinole")
    motion = Motion(1.0, 1.1, (PocketActivity(0, 1.27, 1.4),), hole_hides=("dark",), ditch_discs=ditch_with(3))
    observations = inf.settled(after, 3.0, motion)
    assert [(o.type, o.piece) for o in observations] == [("shot", "light"), ("sunk_20", "dark")]


def test_crokinole_a_disc_over_the_mouth_gone_as_the_shot_came_to_lean_there_fell_in_when_the_ditch_took_none():
    # As crokinole clip 5122: the hole's look changed, and was taken for the shot disc come to lean over it.
    for gone_at, expected in (((-24, 20), "sunk_20"), ((26, 38), "off_board")):  # the second lay clear of the mouth
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
        inf.settled(reading(("light", 150, -200), ("dark", *gone_at), game="crokinole"), 0.0,
                    Motion(0.0, None, ditch_discs=ditch_with()))
        after = reading(("light", 150, -200), ("light", 10, -25), game="crokinole")
        motion = Motion(1.0, 1.1, (PocketActivity(0, 1.29, 1.4),), hole_entries=(1.5,), hole_full=True,
                        ditch_discs=ditch_with(), hole_hides=())  # a light hole: a dark disc in it shows
        observations = inf.settled(after, 3.0, motion)
        assert [(o.type, o.piece) for o in observations] == [("shot", "light"), (expected, "dark")]


def test_a_coin_read_elsewhere_when_the_board_never_moved_since_the_last_reading_was_not_struck():
    # As carrom clip 5151 at 81.9 s: a slow coin crept on after the board first settled, and it settled again.
    for motion, expected in ((None, []), (Motion(1.0, None), [("shot", "striker", None)])):
        inf = inferer()
        crept = reading(("white", 0, 0), ("black", 48, 3), ("queen", -40, 0), ("striker", 0, -250))
        assert kinds(inf.settled(crept, 2.0, motion)) == expected


def test_crokinole_a_disc_read_late_when_nothing_moved_since_the_last_reading_is_no_shot():
    # As crokinole clip 5108 at 44.5 s: a light disc missed at the last reading was read when only the ditch
    # had changed, and it was taken for a shot.
    inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5, first_shooter="dark")
    inf.settled(reading(("dark", 100, 0), ("light", -307, -53), game="crokinole"), 0.0,
                Motion(0.0, None, ditch_discs=ditch_with()))
    again = reading(("dark", 100, 0), ("light", -307, -53), ("light", -110, 207), game="crokinole")
    assert inf.settled(again, 0.5, Motion(0.5, None, ditch_discs=ditch_with(), still=True)) == []
    assert inf.settled(again, 1.0, None) == []


def test_crokinole_motion_in_the_ditch_too_soon_after_the_shot_crossed_the_hole_is_no_landing_of_the_shot_disc():
    # As crokinole clip 5111 at 25 s: dark's shot went into the dark hole at 24.9 s; the ditch stirred on the shooter's
    # side 0.07 s later (the shooter's hand withdrawn), too soon for the shot disc to have crossed the board to it.
    for stirred_s, expected in ((24.97, "sunk_20"), (25.3, "off_board")):
        inf = EventInferer("crokinole", pocket_centres_mm=((0.0, 0.0),), hole_radius_mm=17.5,
                           shooting_line_radius_mm=304.8, first_shooter="light")
        discs = (("light", -193, 125), ("dark", 27, 50), ("light", -65, 20), ("dark", -80, -61))
        inf.settled(reading(*discs, game="crokinole"), 0.0, Motion(0.0, None, ditch_discs=ditch_with(2, 12)))
        inf.settled(reading(*discs, ("light", 150, -150), game="crokinole"), 22.5,
                    Motion(20.5, 21.6, ditch_discs=ditch_with(2, 12)))
        motion = Motion(23.5, 24.67, (PocketActivity(0, 1.15, 24.9),), hole_hides=("dark",),
                        ditch=((23.7, sector_angle(21)), (stirred_s, sector_angle(22))), ditch_discs=ditch_with(2, 12))
        observations = inf.settled(reading(*discs, ("light", 150, -150), game="crokinole"), 25.5, motion)
        assert [(o.type, o.piece) for o in observations] == [("shot", "dark"), (expected, "dark")], stirred_s


def test_the_striker_read_elsewhere_where_its_old_spot_looks_unchanged_moved_and_is_not_a_second_striker():
    # As carrom clip 5207 at 37.3 s (1080p): a pale striker on a pale board leaves its spot looking as it did. Read
    # elsewhere after the stroke, it is the one striker moved, not another beside the first, which a later stroke
    # then left behind as "pocketed" into a pocket that barely stirred.
    inf = inferer()
    coins = [("white", 0, 0), ("black", 40, 0), ("queen", -40, 0)]
    first = inf.settled(reading(*coins, ("striker", 100, 80)), 3.0,
                        Motion(0.5, 1.2, unchanged=picture_unchanged_at((0, -250), *[(x, y) for _, x, y in coins])))
    assert kinds(first) == [("shot", "striker", None)]
    unchanged = picture_unchanged_at((0, -250), (100, 80), *[(x, y) for _, x, y in coins])
    assert inf.settled(reading(*coins, ("striker", 100, 80)), 4.0, Motion(3.5, None, unchanged=unchanged)) == []
    stirred = (PocketActivity(2, 0.01, 5.5),)
    second = inf.settled(reading(*coins, ("striker", -66, -62)), 7.0,
                         Motion(4.5, 5.0, stirred, unchanged=picture_unchanged_at(*[(x, y) for _, x, y in coins]),
                                hand_after_strike=False))
    assert kinds(second) == [("shot", "striker", None)]


def test_the_striker_read_where_a_lost_striker_lay_is_the_one_on_the_board_moved_there():
    # As carrom clip 5209 at 73.4 s (1080p): a pale striker, never read again where it came to rest, was lost there;
    # read again later on its base line and struck, it came to rest beside that spot. It is the game's one striker
    # moved there, not the lost one read again, which left the one struck to be called pocketed.
    inf = inferer()
    coins = [("white", 0, 0), ("black", 40, 0), ("queen", -40, 0)]
    changed = picture_unchanged_at()
    first = inf.settled(reading(*coins, ("striker", 300, 200)), 3.0, Motion(0.5, 1.2, unchanged=changed))
    assert kinds(first) == [("shot", "striker", None)]
    nothing_changed = lambda xy, r: np.ones(len(xy), bool)  # noqa: E731
    for k in range(1, LOST_UNREAD + 1):
        assert inf.settled(reading(*coins), 3.0 + 2 * k, Motion(2.0 + 2 * k, None, unchanged=nothing_changed)) == []
    assert "striker" not in inf.kinds_on_board()
    placed = reading(*coins, ("striker", 0, -250))
    came = picture_unchanged_at(*[(x, y) for _, x, y in coins])
    inf.settled(placed, 20.0, Motion(19.0, None, unchanged=came))
    inf.settled(placed, 21.0, Motion(20.5, None, unchanged=nothing_changed))
    assert inf.kinds_on_board()["striker"] == 1
    stirred = (PocketActivity(2, 0.01, 22.8),)
    struck = inf.settled(reading(*coins, ("striker", 310, 215)), 24.0,
                         Motion(21.5, 22.0, stirred, unchanged=came, hand_after_strike=False))
    assert kinds(struck) == [("shot", "striker", None)]
    assert inf.kinds_on_board()["striker"] == 1
