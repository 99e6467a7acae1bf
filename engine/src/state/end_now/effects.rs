//! What a placement does, read from the position without playing it
//! ([`PlaceEffects`]): the points every seat scores at once, the mover's
//! supply after, the features the new tile completes and joins, and the
//! feature its meeple goes on.
//!
//! Everything comes from the overlay [`EndNow`] prepares for the
//! placement's end-now scores (the groups the new tile's segments make
//! with the features they join, their counters and their meeples per
//! seat) and from the tiles around the new one. No copy of the state is
//! made: a placement is not played. Whether it ends the game is worked
//! out as the turn's end would work it out (a gift due, the bag, the
//! hands and, with `unplaceable: return`, whether any tile left would
//! still fit: `Board::has_fit_after`); then the points scored at once are
//! the final scores less the scores so far, as the game's end scores.

use super::overlay::GROUP;
use super::valuation::{completed_cities, winners};
use super::{wrapping_add, EndNow};
use crate::features::segment_id;
use crate::moves::{Move, Placement};
use crate::seat::{PerSeat, Score, MAX_PLAYERS};
use crate::tiles::{FeatureKind, Tile, NO_SEGMENT};
use crate::turn::Phase;

/// What a placement (with its meeple, if any) does, read from the
/// position without playing it ([`EndNow::effects`]). Seen from the seat
/// to play, the *mover*.
///
/// # Examples
/// ```
/// use engine::{Action, Chance, FeatureKind, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::E)).unwrap();
/// // Close the start tile's city with a knight on it.
/// let Action::Place(mv) = state.parse_action("E (0, 1) r2 S").unwrap() else { unreachable!() };
/// let effects = state.end_now().effects(mv);
/// assert_eq!(effects.points[0], 4); // 2 tiles × 2 points, at once
/// assert_eq!((effects.completed, effects.city_tiles, effects.neighbours), (1, 2, 1));
/// assert_eq!(effects.supply_after, 7); // the knight comes straight back
/// let meeple = effects.meeple.unwrap();
/// assert_eq!((meeple.kind, meeple.tiles, meeple.value, meeple.complete), (FeatureKind::City, 2, 4, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaceEffects {
    /// The end-now scores right after the placement ([`EndNow::after`]).
    pub end_now: PerSeat<Score>,
    /// What each seat's total gains at once: the roads, cities and
    /// monasteries the placement completes, scored as in play (RULES.md
    /// §3) and, when it ends the game, the final scoring too. Seats past
    /// the table's are 0.
    pub points: [u32; MAX_PLAYERS],
    /// The placement ends the game (the final scoring follows at once).
    pub ends_game: bool,
    /// The placement earns the mover a gift (The Gifts: it extends a road
    /// or city that belongs to someone else, and a card can be given).
    pub earns_gift: bool,
    /// Meeples in the mover's supply right after: less the one placed,
    /// plus those that come back from what the placement completes.
    pub supply_after: u8,
    /// Roads, cities and monasteries the placement completes (with
    /// meeples on them or not).
    pub completed: u8,
    /// Tiles of the largest city the new tile is part of (0: none).
    pub city_tiles: u8,
    /// Tiles of the longest road the new tile is part of (0: none).
    pub road_tiles: u8,
    /// Tiles on the four cells next to the new tile's (1–4).
    pub neighbours: u8,
    /// The feature the meeple goes on (`None`: no meeple).
    pub meeple: Option<MeepleFeature>,
}

/// The feature a placement's meeple goes on, right after the placement
/// ([`PlaceEffects::meeple`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeepleFeature {
    /// Its kind.
    pub kind: FeatureKind,
    /// Its tiles ([`crate::Features::tiles`] of its root; a monastery:
    /// the tiles of its 3×3 square, itself included).
    pub tiles: u8,
    /// Points it is worth ([`crate::State::feature_value`]).
    pub value: u32,
    /// It is complete ([`crate::State::is_complete`]): scored at once, the
    /// meeple back in supply.
    pub complete: bool,
}

impl EndNow<'_> {
    /// What placement move `mv` does ([`PlaceEffects`]), read from the
    /// position without playing it; the meeple choices of one placement
    /// share its preparation (ask for them one after the other, as
    /// [`crate::State::for_each_action`] lists them). `mv` must be legal
    /// (checked only by `debug_assert!`).
    ///
    /// # Panics
    /// Outside [`Phase::Place`] and [`Phase::PlaceHand`].
    pub fn effects(&mut self, mv: Move) -> PlaceEffects {
        self.effects_of::<true>(mv)
    }

    /// [`EndNow::effects`] but for whether the placement ends the game
    /// (`false`; so the points are those scored in play), its meeple's
    /// feature (`None`) and its neighbours (0), left out: what the end-now
    /// scores of the actions of a [`crate::SeatView`] give.
    pub(crate) fn effects_in_play(&mut self, mv: Move) -> PlaceEffects {
        self.effects_of::<false>(mv)
    }

    /// [`EndNow::effects`], all of it when `FULL`, else as
    /// [`EndNow::effects_in_play`].
    #[inline(always)]
    fn effects_of<const FULL: bool>(&mut self, mv: Move) -> PlaceEffects {
        let state = self.state;
        debug_assert_eq!(state.check_action(crate::turn::Action::Place(mv)), Ok(()));
        let tile = state
            .placing_tile(mv.placement.slot)
            .expect("a placement in the place phase");
        self.value_all();
        let delta = self.place_delta(tile, mv);
        let mut end_now = self.scores;
        for (s, d) in end_now.0.iter_mut().zip(&delta.0) {
            *s = wrapping_add(*s, *d);
        }

        let p = &self.prepared;
        let ov = &p.ov;
        let me = state.to_play.index();
        let players = state.players;
        let segments = tile.def().segments;
        let meeple_node = mv.meeple.map(|s| ov.parent[s as usize] as usize);
        let mut points = [0u32; MAX_PLAYERS];
        let mut give = |counts: &[u8; MAX_PLAYERS], value: u32| {
            let mut w = winners(counts, players);
            while w != 0 {
                points[w.trailing_zeros() as usize] += value;
                w &= w - 1;
            }
        };
        // Meeples of the mover that come back, and the placement's
        // roads and cities: each group once (by its root node).
        let (mut back, mut completed, mut city, mut road) = (0u8, 0u8, 0u8, 0u8);
        let mut earns_gift = false;
        let mut seen = 0u32;
        for i in 0..tile.segment_count() {
            let node = ov.parent[i] as usize;
            if seen & (1 << node) != 0 {
                continue;
            }
            seen |= 1 << node;
            let kind = segments[node].kind;
            let c = ov.counters[node];
            match kind {
                FeatureKind::City => city = city.max(c.tiles()),
                FeatureKind::Road => road = road.max(c.tiles()),
                _ => continue,
            }
            let mut counts = p.counts[node];
            if p.holding & (1 << node) != 0 {
                // Someone else's before the meeple (which goes only on a
                // feature nobody holds): a gift (RULES.md §5).
                let most = *counts.iter().max().expect("six seats");
                earns_gift |= counts[me] < most;
            }
            if c.open() != 0 {
                continue;
            }
            completed += 1;
            if meeple_node == Some(node) {
                counts[me] += 1;
            }
            if counts.iter().any(|&n| n > 0) {
                let value = u32::from(c.tiles())
                    + if kind == FeatureKind::City {
                        u32::from(c.tiles()) + 2 * u32::from(c.shields())
                    } else {
                        0
                    };
                give(&counts, value);
                back += counts[me];
            }
        }
        // Monasteries the placement surrounds: those around it, and its
        // own when it fills a hole.
        for &s in &ov.around[..ov.around_len] {
            let placed = state.board.placed(s as usize);
            let mono = placed.tile.oriented(placed.rot).monastery;
            if placed.surrounded + 1 != 8 || mono == NO_SEGMENT {
                continue;
            }
            completed += 1;
            let id = segment_id(s as usize, mono);
            if state.features.meeples(id) > 0 {
                let counts = state.meeples_on(id).0;
                give(&counts, 9);
                back += counts[me];
            }
        }
        let own = tile.oriented(mv.placement.rot).monastery;
        if own != NO_SEGMENT && ov.own_surrounded() == 8 {
            completed += 1;
            if mv.meeple == Some(own) {
                points[me] += 9;
                back += 1;
            }
        }

        let earns_gift = earns_gift && state.rules().gifts && state.gifts.can_give();
        let ends_game = FULL && self.ends_game(tile, mv.placement, earns_gift);
        if ends_game {
            // The final scoring follows: what the totals gain is the end
            // scores less the scores so far.
            for (s, pts) in points.iter_mut().enumerate().take(players as usize) {
                *pts = end_now.0[s].total() - state.scores.0[s].total();
            }
        }

        let meeple = mv.meeple.filter(|_| FULL).map(|segment| {
            let node = ov.parent[segment as usize] as usize;
            let kind = segments[segment as usize].kind;
            let c = ov.counters[node];
            let key = GROUP | node as u16;
            match kind {
                FeatureKind::Road | FeatureKind::City => MeepleFeature {
                    kind,
                    tiles: c.tiles(),
                    value: u32::from(ov.value(state, key, kind)),
                    complete: c.open() == 0,
                },
                FeatureKind::Monastery => MeepleFeature {
                    kind,
                    tiles: 1 + ov.own_surrounded().min(8),
                    value: u32::from(ov.value(state, key, kind)),
                    complete: ov.own_surrounded() == 8,
                },
                FeatureKind::Field => MeepleFeature {
                    kind,
                    tiles: c.tiles(),
                    value: 3 * u32::from(completed_cities(&mut self.touches, state, ov, key)),
                    complete: false,
                },
            }
        });
        PlaceEffects {
            end_now,
            points,
            ends_game,
            earns_gift,
            supply_after: state.supply[state.to_play] + back - u8::from(mv.meeple.is_some()),
            completed,
            city_tiles: city,
            road_tiles: road,
            neighbours: if FULL {
                state.board.side_count(mv.placement.pos)
            } else {
                0
            },
            meeple,
        }
    }

    /// Whether `placement` of `tile` ends the game, as the end of its turn
    /// decides (`State::finish_move`, `end_turn`, `after_hand_placement`,
    /// `start_hand_turn`): no gift is due and no tile can be drawn — the
    /// bag is empty or, with `unplaceable: return`, holds only tiles that
    /// fit nowhere on the board the placement makes — and, with a hand,
    /// every hand is empty or (`return`) holds only such tiles.
    fn ends_game(&self, tile: Tile, placement: Placement, earns_gift: bool) -> bool {
        let state = self.state;
        let hand = state.rules.hand() > 0;
        if earns_gift && !hand {
            return false;
        }
        let returns = state.rules.returns_unplaceable();
        let edges = tile.oriented(placement.rot).edges;
        let bounds = state.rules.bounds();
        let fits = |t: Tile| state.board.has_fit_after(t, placement.pos, edges, bounds);
        let draw_due =
            !state.bag.is_empty() && (!returns || state.bag.iter().any(|(t, _)| fits(t)));
        if !hand {
            return !draw_due;
        }
        if draw_due {
            return false;
        }
        let mut mine = state.hands[state.to_play];
        mine.remove(placement.slot);
        let players = state.players as usize;
        let hands = || {
            (0..players).map(|s| {
                if s == state.to_play.index() {
                    mine
                } else {
                    state.hands.0[s]
                }
            })
        };
        hands().all(|h| h.is_empty()) || (returns && hands().all(|h| h.iter().all(|t| !fits(t))))
    }
}

impl crate::State {
    /// What placement move `mv` does ([`EndNow::effects`] of one
    /// placement; to read many of one position, share one
    /// [`crate::State::end_now`]).
    ///
    /// # Panics
    /// Outside [`Phase::Place`] and [`Phase::PlaceHand`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let Action::Place(mv) = state.parse_action("U (1, 0) r1 E").unwrap() else { unreachable!() };
    /// let effects = state.place_effects(mv);
    /// assert_eq!((effects.points[0], effects.supply_after, effects.road_tiles), (0, 6, 2));
    /// assert!(!effects.ends_game);
    /// ```
    pub fn place_effects(&self, mv: Move) -> PlaceEffects {
        debug_assert!(matches!(self.phase, Phase::Place(_) | Phase::PlaceHand));
        self.end_now().effects(mv)
    }
}
