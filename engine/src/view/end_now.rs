//! The end-now scores of a seat's view and of its actions
//! ([`SeatEndNow`]): [`EndNow`] on the position itself, without a copy
//! of it, giving out only what the seat may know.

use super::SeatView;
use crate::features::SegmentId;
use crate::moves::Move;
use crate::seat::{PerSeat, Score};
use crate::state::EndNow;
use crate::turn::Action;

#[cfg(doc)]
use crate::state::{PlaceEffects, State};

/// The end-now scores of a view's position prepared to score many of its
/// actions ([`SeatView::end_now`]): [`EndNow`] read on the position
/// itself, not on a determinization, giving out only what does not
/// depend on what the seat cannot see (other seats' gift cards count 2
/// points each whatever they are; the order of the gift deck and hidden
/// tiles in hands change no score). It does not hand out the state.
///
/// # Examples
/// ```
/// use engine::{Action, Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let view = state.view(Seat(0));
/// let mut end_now = view.end_now();
/// assert_eq!(end_now.scores(), view.end_now_scores());
/// view.for_each_action(|a| {
///     assert_eq!(end_now.after(a), state.end_now_scores_after(a));
///     if let Action::Place(mv) = a {
///         assert_eq!(end_now.effects(mv).end_now, state.end_now_scores_after(a));
///     }
/// });
/// ```
pub struct SeatEndNow<'a> {
    inner: EndNow<'a>,
    /// The view's seat is to play (its actions may be scored).
    to_play: bool,
}

/// What a placement (with its meeple, if any) does, as far as the seat to
/// play may know ([`SeatEndNow::effects`]): the fields of
/// [`PlaceEffects`] an action's encoding reads. Not whether it ends the
/// game nor so the points scored at once, which with hidden hands and
/// `unplaceable: return` (RULES.md §8) depend on the tiles in other
/// seats' hands; nor, to keep it lean, the meeple's feature and the
/// neighbours (read them on the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatEffects {
    /// The end-now scores right after the placement ([`SeatEndNow::after`]).
    pub end_now: PerSeat<Score>,
    /// The placement earns the mover a gift ([`PlaceEffects::earns_gift`]).
    pub earns_gift: bool,
    /// Meeples in the mover's supply right after
    /// ([`PlaceEffects::supply_after`]).
    pub supply_after: u8,
    /// Roads, cities and monasteries the placement completes
    /// ([`PlaceEffects::completed`]).
    pub completed: u8,
    /// Tiles of the largest city the new tile is part of (0: none).
    pub city_tiles: u8,
    /// Tiles of the longest road the new tile is part of (0: none).
    pub road_tiles: u8,
}

impl<'a> SeatView<'a> {
    /// The end-now scores of the position prepared to score many of its
    /// actions ([`SeatEndNow`]; as [`State::end_now`], without copying
    /// the position).
    pub fn end_now(&self) -> SeatEndNow<'a> {
        SeatEndNow {
            inner: self.state.end_now(),
            to_play: self.state.to_play() == self.seat,
        }
    }
}

impl SeatEndNow<'_> {
    /// The end-now scores of the position ([`SeatView::end_now_scores`]).
    pub fn scores(&mut self) -> PerSeat<Score> {
        self.inner.valued_scores()
    }

    /// What the feature of segment `id` is worth
    /// ([`SeatView::feature_value`]; [`EndNow::feature_value`]: a field
    /// is walked once however often it is asked for, the end-now scores
    /// included).
    pub fn feature_value(&mut self, id: SegmentId) -> u32 {
        self.inner.feature_value(id)
    }

    /// The end-now scores right after `action` ([`EndNow::after`]; a gift
    /// opening or Take 2's choice is played on a copy). `action` must be
    /// legal (checked only by `debug_assert!`).
    ///
    /// # Panics
    /// When the view's seat is not to play (its tile in hand would be
    /// another seat's).
    pub fn after(&mut self, action: Action) -> PerSeat<Score> {
        assert!(self.to_play, "the view's seat is not to play");
        self.inner.after(action)
    }

    /// What placement move `mv` does ([`SeatEffects`]: the part of
    /// [`EndNow::effects`] the seat may know that an action's encoding
    /// reads, worked out alone). The meeple choices of one
    /// placement share its preparation: ask for them one after the other.
    /// `mv` must be legal (checked only by `debug_assert!`).
    ///
    /// # Panics
    /// Outside the place phases, or when the view's seat is not to play.
    pub fn effects(&mut self, mv: Move) -> SeatEffects {
        assert!(self.to_play, "the view's seat is not to play");
        let e = self.inner.effects_in_play(mv);
        SeatEffects {
            end_now: e.end_now,
            earns_gift: e.earns_gift,
            supply_after: e.supply_after,
            completed: e.completed,
            city_tiles: e.city_tiles,
            road_tiles: e.road_tiles,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::random_action;
    use crate::rules::Rules;
    use crate::seat::Seat;
    use crate::state::State;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// `check` at every decision of a random game of `rules` (text),
    /// `players` seats and `seed`, with the game's generator.
    fn each_decision(
        rules: &str,
        players: usize,
        seed: u64,
        mut check: impl FnMut(&State, &mut Pcg64Mcg),
    ) {
        let rules: Rules = rules.parse().unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(rules, players, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            check(&state, &mut rng);
            let a = random_action(&state, &mut rng).expect("a decision");
            state.play_action_unchecked(a);
        }
    }

    /// The seat's end-now scores and effects, read on the position
    /// itself, equal those of determinizations of its view (what the
    /// action encoder read before: the numbers must not depend on what
    /// the seat cannot see), for every action of every decision of random
    /// games with gift cards, hidden hands and returned tiles, and the
    /// determinizations did differ from the position.
    #[test]
    fn the_seat_end_now_equals_it_on_determinizations() {
        let (mut checked, mut differed) = (0, 0);
        for (rules, players, seed) in [
            ("gifts=true", 2, 1u64),
            ("gifts=true,farmers=false", 4, 2),
            ("hand=2", 3, 3),
            ("hand=2,unplaceable=return", 2, 4),
            ("hand=3,hand_visible=true,final_incomplete=true", 3, 5),
            (
                "table=7x7,table_closes=true,unplaceable=return,hand=1",
                2,
                6,
            ),
        ] {
            each_decision(rules, players, seed, |state, rng| {
                let view = state.view(state.to_play());
                let mut mine = view.end_now();
                let dets: Vec<State> = (0..2).map(|_| view.determinize(rng)).collect();
                differed += dets.iter().filter(|d| *d != state).count();
                for det in &dets {
                    let mut theirs = det.end_now();
                    assert_eq!(mine.scores(), theirs.valued_scores());
                    view.for_each_action(|a| {
                        assert_eq!(mine.after(a), theirs.after(a), "{a:?}");
                        if let Action::Place(mv) = a {
                            let (got, want) = (mine.effects(mv), theirs.effects(mv));
                            let want = SeatEffects {
                                end_now: want.end_now,
                                earns_gift: want.earns_gift,
                                supply_after: want.supply_after,
                                completed: want.completed,
                                city_tiles: want.city_tiles,
                                road_tiles: want.road_tiles,
                            };
                            assert_eq!(got, want, "{a:?}");
                        }
                        checked += 1;
                    });
                }
            });
        }
        assert!(checked > 10_000, "{checked} actions");
        assert!(differed > 100, "{differed} determinizations differed");
    }

    /// [`SeatEndNow::feature_value`] equals [`SeatView::feature_value`]
    /// for every segment of every tile, asked in the order of the board
    /// and again (the second time from the fields' kept lists), at every
    /// decision of random games with and without farmers.
    #[test]
    fn feature_values_equal_the_states() {
        let (mut fields, mut scored) = (0, 0);
        for (rules, players, seed) in [("", 2, 1u64), ("farmers=false", 3, 2), ("", 4, 3)] {
            each_decision(rules, players, seed, |state, _| {
                let view = state.view(state.to_play());
                let mut end_now = view.end_now();
                end_now.scores();
                for _ in 0..2 {
                    for slot in 0..state.board().len() {
                        let tile = state.board().placed(slot).tile;
                        for i in 0..tile.segment_count() as u8 {
                            let id = crate::features::segment_id(slot, i);
                            let want = view.feature_value(id);
                            assert_eq!(end_now.feature_value(id), want, "{rules} seed {seed}");
                            if state.segment_kind(id) == crate::tiles::FeatureKind::Field {
                                fields += 1;
                                scored += usize::from(want > 0);
                            }
                        }
                    }
                }
            });
        }
        assert!(
            fields > 10_000 && scored > 1_000,
            "{fields} fields, {scored} worth points"
        );
    }

    #[test]
    #[should_panic(expected = "not to play")]
    fn a_seat_not_to_play_has_no_effects_to_read() {
        let mut state = State::new(Rules::default(), 2, Seat(0));
        state
            .apply_chance_outcome(crate::turn::Chance::Tile(crate::tiles::Tile::U))
            .unwrap();
        let mut mv = None;
        state.for_each_move(|m| mv = mv.or(Some(m)));
        state.view(Seat(1)).end_now().effects(mv.unwrap());
    }
}
