//! Uniformly random play: the reference playout of `carcassonne bench`,
//! the `random` agent's policy and the search agents' `rollout=random`.
//!
//! A random move picks the placement uniformly over the legal (cell,
//! rotation) pairs, then the meeple uniformly over "none" and the free
//! segments of the placed tile. With a hand (RULES.md §8), the placement
//! is uniform over every (tile of the hand, cell, rotation). With The Gifts, a seat that may open a
//! gift does so with probability 1/2, uniformly over every opening (card
//! and target); after Take 2 it keeps either tile with probability 1/2.
//!
//! [`random_move`] and [`random_action`] draw their choices as `rand`'s
//! `gen_range` does, as they always have, so the games of agents built on
//! them stay what they were; [`random_playout`] plays the same policy
//! drawing fewer numbers (Lemire's method, see `sampling`): the same
//! distribution of games, not the same game for a seed.

use crate::gifts::GiftOpen;
use crate::moves::Move;
use crate::sampling::{GenRange, Lemire, Sampler};
use crate::state::State;
use crate::turn::{Action, Phase};
use rand::Rng;

/// A uniformly random legal move, or `None` outside [`Phase::Place`] and
/// [`Phase::PlaceHand`].
///
/// # Examples
/// ```
/// use engine::{random_move, Chance, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let mv = random_move(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1)).unwrap();
/// assert_eq!(state.check(mv), Ok(()));
/// ```
#[inline]
pub fn random_move<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Move> {
    random_move_drawn::<GenRange, R>(state, rng)
}

/// [`random_move`] with its choices drawn by `S`.
#[inline]
fn random_move_drawn<S: Sampler, R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Move> {
    let n = state.placement_count();
    if n == 0 {
        return None;
    }
    let placement = state.nth_placement(S::index(rng, n))?;
    let meeple = random_meeple::<S, R>(state.free_segments(placement), rng);
    Some(Move { placement, meeple })
}

/// The meeple of a random move whose tile has the segments `free` (bit
/// `i`: segment `i`) free: none or one of them, uniformly.
#[inline]
pub(crate) fn random_meeple<S: Sampler, R: Rng + ?Sized>(free: u8, rng: &mut R) -> Option<u8> {
    // A table, not `count_ones`: the engine targets plain x86-64, which
    // has no popcount instruction.
    let k = S::meeple(rng, u32::from(SEGMENT_COUNTS[free as usize]));
    (k > 0).then(|| {
        let mut f = free;
        for _ in 1..k {
            f &= f - 1;
        }
        f.trailing_zeros() as u8
    })
}

/// The number of set bits of each byte.
static SEGMENT_COUNTS: [u8; 256] = {
    let mut out = [0; 256];
    let mut b = 0;
    while b < 256 {
        out[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    out
};

/// Most gift openings at once: 6 monasteries + 62 roads + 7 Cash Outs +
/// 7 × 7 Change Positions + Take 2 + 5 wasted cards (RULES.md tile counts).
///
/// # Examples
/// ```
/// use engine::{random_action, Rules, Seat, State, MAX_GIFT_OPENINGS};
/// use rand::SeedableRng;
///
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
/// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 4, Seat(0));
/// while !state.is_over() {
///     let mut openings = 0;
///     state.for_each_gift_open(|_| openings += 1);
///     assert!(openings <= MAX_GIFT_OPENINGS);
///     if state.is_chance() {
///         state.apply_chance(&mut rng);
///     } else {
///         state.try_action(random_action(&state, &mut rng).unwrap()).unwrap();
///     }
/// }
/// ```
pub const MAX_GIFT_OPENINGS: usize = 130;

/// A gift opening of the seat to play, uniform over every card and target
/// (see [`State::for_each_gift_open`]), or `None` when it may open none.
///
/// # Examples
/// ```
/// use engine::{random_gift_open, Chance, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// assert_eq!(random_gift_open(&state, &mut rng), None); // no card in hand
/// ```
pub fn random_gift_open<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<GiftOpen> {
    random_gift_open_drawn::<GenRange, R>(state, rng)
}

/// [`random_gift_open`] with its choice drawn by `S`.
fn random_gift_open_drawn<S: Sampler, R: Rng + ?Sized>(
    state: &State,
    rng: &mut R,
) -> Option<GiftOpen> {
    let mut opens = [GiftOpen::Take2; MAX_GIFT_OPENINGS];
    let mut n = 0;
    state.for_each_gift_open(|g| {
        opens[n] = g;
        n += 1;
    });
    (n > 0).then(|| opens[S::index(rng, n)])
}

/// A random action of the seat to play, or `None` when no seat is to act:
/// the reference playout policy. A seat that may open a gift does so with
/// probability ½, uniformly over every opening (card and target), else it
/// plays [`random_move`]; after Take 2 it keeps either tile with
/// probability ½.
///
/// # Examples
/// ```
/// use engine::{random_action, Chance, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// assert!(random_action(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1)).is_none());
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let a = random_action(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1)).unwrap();
/// assert_eq!(state.check_action(a), Ok(()));
/// ```
pub fn random_action<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Action> {
    random_action_drawn::<GenRange, R>(state, rng)
}

/// [`random_action`] with its choices drawn by `S` (the coin flips are
/// `gen_bool` either way).
pub(crate) fn random_action_drawn<S: Sampler, R: Rng + ?Sized>(
    state: &State,
    rng: &mut R,
) -> Option<Action> {
    match state.phase() {
        Phase::Place(_) => match random_gift_first::<S, R>(state, rng) {
            Some(open) => Some(Action::Open(open)),
            None => random_move_drawn::<S, R>(state, rng).map(Action::Place),
        },
        Phase::Choose(a, b) => Some(Action::Keep(if rng.gen_bool(0.5) { a } else { b })),
        Phase::PlaceHand => random_move_drawn::<S, R>(state, rng).map(Action::Place),
        _ => None,
    }
}

/// Play `state` to the end with random chance outcomes and random
/// actions, all from `rng`.
///
/// The actions follow [`random_action`]'s policy, but their placement,
/// meeple and gift indices are drawn by Lemire's method (module docs):
/// fewer draws and no unpredictable redraw branch, so a game from a seed
/// is not the one a loop of [`random_action`] plays from it, while the
/// games are distributed the same.
///
/// # Examples
/// ```
/// use engine::{random_playout, Rules, Seat, State};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// random_playout(&mut state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(9));
/// assert!(state.is_over());
/// ```
pub fn random_playout<R: Rng + ?Sized>(state: &mut State, rng: &mut R) {
    // `random_action_drawn::<Lemire>` then playing it, with one look at
    // the phase per step and the placement played by
    // `State::play_random_move_drawn`: the same draws, fewer steps.
    loop {
        match state.phase() {
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift | Phase::DrawHand => {
                state.apply_chance(rng);
            }
            Phase::Place(_) => match random_gift_first::<Lemire, R>(state, rng) {
                Some(open) => state.play_action_unchecked(Action::Open(open)),
                None if state.play_random_move_drawn::<Lemire, R>(rng).is_some() => {}
                None => return,
            },
            Phase::PlaceHand => {
                if state.play_random_move_drawn::<Lemire, R>(rng).is_none() {
                    return;
                }
            }
            Phase::Choose(..) | Phase::Over => match random_action_drawn::<Lemire, R>(state, rng) {
                Some(action) => state.play_action_unchecked(action),
                None => return,
            },
        }
    }
}

/// Play a uniformly random legal move on `state` and return it, or return
/// `None` and change nothing when the seat to play has no placement
/// (outside [`Phase::Place`] and [`Phase::PlaceHand`], or with no fitting
/// cell).
///
/// The same as [`random_move`] then [`State::play_action_unchecked`]: the
/// same move from the same draws of `rng`, leaving the same state, in
/// fewer steps (the rollout's hot path: the segments free for the meeple
/// are read off the board after the tile is put).
///
/// # Examples
/// ```
/// use engine::{play_random_move, random_move, Action, Chance, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let mut picked = state.clone();
/// let mv = random_move(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(4)).unwrap();
/// picked.play_action_unchecked(Action::Place(mv));
/// let played = play_random_move(&mut state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(4));
/// assert_eq!((played, &state), (Some(mv), &picked));
/// ```
pub fn play_random_move<R: Rng + ?Sized>(state: &mut State, rng: &mut R) -> Option<Move> {
    state.play_random_move_drawn::<GenRange, R>(rng)
}

/// The gift a random action in [`Phase::Place`] opens first: when the
/// seat may open one, with probability ½ one uniformly over every opening;
/// else `None` (the action is then a random move).
fn random_gift_first<S: Sampler, R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<GiftOpen> {
    if state.may_open_gift() && rng.gen_bool(0.5) {
        random_gift_open_drawn::<S, R>(state, rng)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Table, Unplaceable};
    use crate::seat::Seat;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// Rule sets that take every path of the playout: The Gifts (openings,
    /// Take 2's choice), hands (their own placement phase), unplaceable
    /// tiles returned, the start tile in the bag, a closing table, bonus
    /// turns, no farmers.
    fn variants() -> [Rules; 8] {
        let table = Some(Table {
            width: 7,
            height: 5,
        });
        [
            Rules::STANDARD,
            Rules {
                gifts: true,
                ..Rules::STANDARD
            },
            Rules {
                gifts: true,
                hole_bonus: true,
                farmers: false,
                ..Rules::STANDARD
            },
            Rules {
                hand: 1,
                ..Rules::STANDARD
            },
            Rules {
                hand: 3,
                start_in_bag: true,
                unplaceable: Unplaceable::Return,
                ..Rules::STANDARD
            },
            Rules {
                table,
                table_closes: true,
                unplaceable: Unplaceable::Return,
                ..Rules::STANDARD
            },
            Rules {
                table,
                hand: 2,
                ..Rules::STANDARD
            },
            Rules {
                start_in_bag: true,
                final_incomplete: false,
                ..Rules::STANDARD
            },
        ]
    }

    /// Play to the end one action at a time, choices drawn by `S`.
    fn play_by_actions<S: Sampler>(state: &mut State, rng: &mut Pcg64Mcg) {
        loop {
            if state.is_chance() {
                state.apply_chance(rng);
            } else if let Some(action) = random_action_drawn::<S, _>(state, rng) {
                state.play_action_unchecked(action);
            } else {
                return;
            }
        }
    }

    /// `random_playout` plays the game `random_action_drawn::<Lemire>`
    /// plays, draw for draw, under every variant and 2 to 6 seats.
    #[test]
    fn random_playout_plays_the_lemire_random_actions() {
        for (k, rules) in variants().into_iter().enumerate() {
            for players in 2..=6 {
                let seed = (k * 10 + players) as u64;
                let start = State::new(rules, players, Seat(0));
                let mut by_actions = start.clone();
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                play_by_actions::<Lemire>(&mut by_actions, &mut rng.clone());
                let mut playout = start;
                random_playout(&mut playout, &mut rng);
                assert!(playout.is_over(), "{rules:?}, {players} seats");
                assert!(playout == by_actions, "{rules:?}, {players} seats");
            }
        }
    }

    /// The two samplers play one policy: over 2,000 games each from
    /// different draws, the mean final score and the mean number of
    /// meeples still placed agree within 4.5 standard errors (sampling a
    /// placement or a meeple with any bias to an end moves them by far
    /// more). The seeds are fixed, so this cannot flake.
    #[test]
    fn both_samplers_play_games_distributed_alike() {
        for rules in [
            Rules::STANDARD,
            Rules {
                gifts: true,
                ..Rules::STANDARD
            },
        ] {
            let sample = |lemire: bool| {
                let mut out = Vec::new();
                for seed in 0..2_000u64 {
                    let mut state = State::new(rules, 2, Seat(0));
                    let mut rng = Pcg64Mcg::seed_from_u64(seed + if lemire { 1 << 40 } else { 0 });
                    if lemire {
                        play_by_actions::<Lemire>(&mut state, &mut rng);
                    } else {
                        play_by_actions::<GenRange>(&mut state, &mut rng);
                    }
                    let score: f64 = (0..2)
                        .map(|s| f64::from(state.score(Seat(s)).total()))
                        .sum();
                    let placed: f64 = (0..2)
                        .map(|s| f64::from(crate::MEEPLES_PER_SEAT - state.supply(Seat(s))))
                        .sum();
                    out.push((score, placed));
                }
                out
            };
            let (a, b) = (sample(false), sample(true));
            let stats = |v: &[f64]| {
                let n = v.len() as f64;
                let mean = v.iter().sum::<f64>() / n;
                let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
                (mean, var / n)
            };
            for (name, pick) in [
                ("score", (|p: &(f64, f64)| p.0) as fn(&(f64, f64)) -> f64),
                ("meeples placed", |p| p.1),
            ] {
                let (ma, va) = stats(&a.iter().map(pick).collect::<Vec<_>>());
                let (mb, vb) = stats(&b.iter().map(pick).collect::<Vec<_>>());
                let z = (ma - mb) / (va + vb).sqrt();
                assert!(
                    z.abs() < 4.5,
                    "{name}: {ma:.2} vs {mb:.2} (z = {z:.2}), {rules:?}"
                );
            }
        }
    }
}
