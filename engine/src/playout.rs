//! Uniformly random play: the reference playout of `carcassonne bench` and
//! the default rollout of search agents.
//!
//! A random move picks the placement uniformly over the legal (cell,
//! rotation) pairs, then the meeple uniformly over "none" and the free
//! segments of the placed tile. With a hand (RULES.md §8), the placement
//! is uniform over every (tile of the hand, cell, rotation). With The Gifts, a seat that may open a
//! gift does so with probability 1/2, uniformly over every opening (card
//! and target); after Take 2 it keeps either tile with probability 1/2.

use crate::gifts::GiftOpen;
use crate::moves::Move;
use crate::state::State;
use crate::turn::{Action, Phase};
use rand::Rng;

/// A uniformly random legal move, or `None` outside [`Phase::Place`] and
/// [`Phase::PlaceHand`].
///
/// # Examples
/// ```
/// use engine::{random_move, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.draw(Tile::U).unwrap();
/// let mv = random_move(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1)).unwrap();
/// assert_eq!(state.check(mv), Ok(()));
/// ```
#[inline]
pub fn random_move<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Move> {
    let n = state.placement_count();
    if n == 0 {
        return None;
    }
    let placement = state.nth_placement(rng.gen_range(0..n))?;
    let meeple = random_meeple(state.free_segments(placement), rng);
    Some(Move { placement, meeple })
}

/// The meeple of a random move whose tile has the segments `free` (bit
/// `i`: segment `i`) free: none or one of them, uniformly.
#[inline]
pub(crate) fn random_meeple<R: Rng + ?Sized>(free: u8, rng: &mut R) -> Option<u8> {
    // A table, not `count_ones`: the engine targets plain x86-64, which
    // has no popcount instruction.
    let k = rng.gen_range(0..=u32::from(SEGMENT_COUNTS[free as usize]));
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
/// use engine::{random_gift_open, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
/// state.draw(Tile::U).unwrap();
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// assert_eq!(random_gift_open(&state, &mut rng), None); // no card in hand
/// ```
pub fn random_gift_open<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<GiftOpen> {
    let mut opens = [GiftOpen::Take2; MAX_GIFT_OPENINGS];
    let mut n = 0;
    state.for_each_gift_open(|g| {
        opens[n] = g;
        n += 1;
    });
    (n > 0).then(|| opens[rng.gen_range(0..n)])
}

/// A random action of the seat to play, or `None` when no seat is to act:
/// the reference playout policy. A seat that may open a gift does so with
/// probability ½, uniformly over every opening (card and target), else it
/// plays [`random_move`]; after Take 2 it keeps either tile with
/// probability ½.
///
/// # Examples
/// ```
/// use engine::{random_action, Rules, Seat, State, Tile};
/// use rand::SeedableRng;
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// assert!(random_action(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1)).is_none());
/// state.draw(Tile::U).unwrap();
/// let a = random_action(&state, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1)).unwrap();
/// assert_eq!(state.check_action(a), Ok(()));
/// ```
pub fn random_action<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<Action> {
    match state.phase() {
        Phase::Place(_) => match random_gift_first(state, rng) {
            Some(open) => Some(Action::Open(open)),
            None => random_move(state, rng).map(Action::Place),
        },
        Phase::Choose(a, b) => Some(Action::Keep(if rng.gen_bool(0.5) { a } else { b })),
        Phase::PlaceHand => random_move(state, rng).map(Action::Place),
        _ => None,
    }
}

/// Play `state` to the end with random chance outcomes and random
/// actions, all from `rng`.
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
    // `random_action` then playing it, with one look at the phase per
    // step and the placement played by `State::play_random_move`: the
    // same draws, fewer steps.
    loop {
        match state.phase() {
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift | Phase::DrawHand => {
                state.apply_chance(rng);
            }
            Phase::Place(_) => match random_gift_first(state, rng) {
                Some(open) => state.play_action_unchecked(Action::Open(open)),
                None if state.play_random_move_inline(rng).is_some() => {}
                None => return,
            },
            Phase::PlaceHand => {
                if state.play_random_move(rng).is_none() {
                    return;
                }
            }
            Phase::Choose(..) | Phase::Over => match random_action(state, rng) {
                Some(action) => state.play_action_unchecked(action),
                None => return,
            },
        }
    }
}

/// The gift a random action in [`Phase::Place`] opens first: when the
/// seat may open one, with probability ½ one uniformly over every opening;
/// else `None` (the action is then a random move).
fn random_gift_first<R: Rng + ?Sized>(state: &State, rng: &mut R) -> Option<GiftOpen> {
    if state.may_open_gift() && rng.gen_bool(0.5) {
        random_gift_open(state, rng)
    } else {
        None
    }
}
