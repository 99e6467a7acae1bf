//! Following a game with hidden hands of tiles (RULES.md §8 `hand`
//! without `hand_visible`) from one seat's side: an external bot's own
//! engine. The seat is told every tile set aside and placed, its own
//! draws, but only *how many* tiles another seat draws into its hand; so
//! its copy of the game holds placeholder tiles in the other hands.
//!
//! Before each turn the copy deals the tiles its seat has not seen — the
//! bag and the other hands, one multiset — again, so that the turn
//! applies with the checked replay: the tiles the turn shows go where the
//! turn takes them from, placeable tiles where the rules need them. The
//! seat's own hand, every hand size, the board and the unseen tiles as a
//! whole stay exact, which is everything its
//! [`SeatView`](crate::SeatView) shows (its
//! [`unseen_tiles`](crate::SeatView::unseen_tiles), not the copy's bag,
//! is what it knows of the bag).
//!
//! With `unplaceable: return` a bag holding only unplaceable tiles counts
//! as empty, so a turn also tells which tiles the bag can hold: the deal
//! puts those it cannot hold into other hands (see [`BagLimits`]). How
//! many of another seat's hidden draws came before its placement the
//! turn does not say; each count is tried (all that replay leave the same
//! view). Nor does it say how many of the tiles set aside came from the
//! hand; each split is tried, fewest from the hand first. With
//! `unplaceable: return` two splits can both replay (the tiles go back
//! into the bag either way) and leave that seat holding different numbers
//! of tiles: unless the follower is told the hand size after the turn
//! ([`Hidden::held`](crate::Hidden::held)), the copy's hand size for it and
//! its bag count can then be off by the same number of tiles
//! (engine/tests/follow.rs, `split_unknown`).

use super::State;
use crate::bag::Bag;
use crate::board::Board;
use crate::geom::{Pos, Rotation};
use crate::hand::Hand;
use crate::record::{apply_turn, apply_turn_start, ReplayReason, TurnRecord};
use crate::seat::Seat;
use crate::tiles::Tile;
use crate::turn::Phase;

impl State {
    /// Hands of tiles that other seats do not see.
    pub(crate) fn hands_hidden(&self) -> bool {
        self.rules.hand() > 0 && !self.rules.unpack().hand_visible
    }

    /// The tiles `viewer` has not seen: the bag, and with hidden hands the
    /// other seats' hands.
    pub(crate) fn unseen_by(&self, viewer: Seat) -> Bag {
        let mut unseen = self.bag;
        if self.hands_hidden() {
            for s in (0..self.players).map(Seat).filter(|&s| s != viewer) {
                for t in self.hands[s].iter() {
                    unseen.put_back(t);
                }
            }
        }
        unseen
    }

    /// Deal the tiles `viewer` has not seen again: `fixed` gets its hand,
    /// the bag keeps `keep`, every other hand (of the same size as now)
    /// takes unseen tiles in the order of [`BagLimits::hand_rank`], the
    /// bag the rest. Then the turn to play starts again with its new hand.
    fn redeal(
        &mut self,
        viewer: Seat,
        fixed: Option<(Seat, Hand)>,
        keep: &Bag,
        limits: &BagLimits,
    ) -> Result<(), ReplayReason> {
        let mut pool = self.unseen_by(viewer);
        let fixed_tiles = fixed.iter().flat_map(|(_, h)| h.iter());
        take_all(&mut pool, fixed_tiles.chain(tiles_of(keep)), viewer)?;
        for seat in (0..self.players).map(Seat).filter(|&s| s != viewer) {
            self.hands[seat] = match fixed {
                Some((f, hand)) if f == seat => hand,
                _ => {
                    let size = self.hands[seat].len();
                    let board = &self.board;
                    let rank = |t| Some(limits.hand_rank(board, t));
                    let tiles = take_ranked(&mut pool, size, rank).ok_or_else(|| {
                        ReplayReason::BadTurn("more tiles drawn than the bag holds".to_string())
                    })?;
                    hand_of(&tiles)
                }
            };
        }
        for t in tiles_of(keep) {
            pool.put_back(t);
        }
        self.bag = pool;
        if matches!(self.phase, Phase::Draw | Phase::PlaceHand) {
            self.start_hand_turn();
        }
        Ok(())
    }
}

/// Every tile of `bag`, by kind.
fn tiles_of(bag: &Bag) -> impl Iterator<Item = Tile> + '_ {
    bag.iter()
        .flat_map(|(t, n)| std::iter::repeat_n(t, n as usize))
}

/// A hand holding `tiles`.
fn hand_of(tiles: &[Tile]) -> Hand {
    let mut hand = Hand::EMPTY;
    for &t in tiles {
        hand.insert(t);
    }
    hand
}

/// Take `tiles` out of `pool`, the tiles `viewer` has not seen.
fn take_all(
    pool: &mut Bag,
    tiles: impl IntoIterator<Item = Tile>,
    viewer: Seat,
) -> Result<(), ReplayReason> {
    for t in tiles {
        if !pool.take(t) {
            return Err(ReplayReason::BadTurn(format!(
                "tile {t} is not among the tiles seat {} has not seen",
                viewer.0
            )));
        }
    }
    Ok(())
}

/// Take `n` tiles of `pool`: by `rank` (`None`: not at all), then by kind.
fn take_ranked(pool: &mut Bag, n: usize, rank: impl Fn(Tile) -> Option<u8>) -> Option<Vec<Tile>> {
    let mut kinds: Vec<(u8, Tile)> = Tile::ALL
        .iter()
        .filter_map(|&t| Some((rank(t)?, t)))
        .collect();
    kinds.sort_by_key(|&(r, _)| r);
    let mut taken = Vec::with_capacity(n);
    for (_, t) in kinds {
        while taken.len() < n && pool.take(t) {
            taken.push(t);
        }
    }
    (taken.len() == n).then_some(taken)
}

/// What a turn with `unplaceable: return` shows of the bag, where a bag
/// holding only unplaceable tiles counts as empty (RULES.md §8): a hand
/// left short says no tile left in the bag could be placed, a draw says
/// one could. The copy's bag must agree, or the checked replay draws
/// where the game did not, or stops where it drew.
#[derive(Default)]
struct BagLimits {
    /// The draws before placing left the hand short: no tile left in the
    /// bag (the tiles drawn after placing included) fits the board the
    /// turn began on.
    short_before: bool,
    /// The board after the placement, and whether the draws after it
    /// left the hand short: then no tile left in the bag fits it; else
    /// the bag holds one that does before each of those draws.
    after: Option<(Board, bool)>,
}

impl BagLimits {
    /// The limits of the turn `turn` of the seat to play in `state` (none
    /// without `unplaceable: return`): `held` tiles in its hand after the
    /// draws before placing, `after` tiles drawn after placing.
    fn of(state: &State, turn: &TurnRecord, held: usize, after: usize) -> BagLimits {
        if !state.rules.returns_unplaceable() {
            return BagLimits::default();
        }
        let n = state.rules.hand() as usize;
        BagLimits {
            short_before: held < n,
            after: board_after(state, turn).map(|board| (board, held + after < n + 1)),
        }
    }

    /// `tile` fits the board after the placement.
    fn fits_after(&self, tile: Tile) -> bool {
        self.after.as_ref().is_some_and(|(b, _)| b.has_fit(tile))
    }

    /// The draws after placing left the hand short.
    fn short_after(&self) -> bool {
        self.after.as_ref().is_some_and(|&(_, short)| short)
    }

    /// How early another hand takes `tile` when the copy deals the tiles
    /// it has not seen (`board`: the one the turn begins on): first the
    /// tiles the bag cannot hold, last those that fit after the placement
    /// while draws after it are due; else tiles that fit first.
    fn hand_rank(&self, board: &Board, tile: Tile) -> u8 {
        let fits = board.has_fit(tile);
        let after = self.fits_after(tile);
        if (self.short_before && fits) || (self.short_after() && after) {
            0
        } else if after {
            3
        } else {
            u8::from(!fits) + 1
        }
    }
}

/// The board after the turn's placement, if it names a legal one.
fn board_after(state: &State, turn: &TurnRecord) -> Option<Board> {
    let (tile, pos) = (turn.tile?, Pos::new(turn.x?, turn.y?));
    let rot = Rotation::new(turn.rot?)?;
    if state.board.fitting_rotations_at(tile, pos) & (1 << rot.quarter_turns()) == 0 {
        return None;
    }
    let mut board = state.board.clone();
    board.place(tile, rot, pos, state.rules.bounds());
    Some(board)
}

/// Apply to `state` the first of `tries` with which the turn replays on a
/// copy (`apply` deals the copy again and applies the turn); else the
/// last error.
fn first_that_replays<T>(
    state: &mut State,
    tries: impl IntoIterator<Item = T>,
    apply: impl Fn(&mut State, T) -> Result<(), ReplayReason>,
) -> Result<(), ReplayReason> {
    let mut last = ReplayReason::BadTurn("the hidden draws do not fit the turn".to_string());
    for t in tries {
        let mut copy = state.clone();
        match apply(&mut copy, t) {
            Ok(()) => {
                *state = copy;
                return Ok(());
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Deal the set-up hands of a game with a hand (RULES.md §8) in a copy
/// kept by `viewer` (see the module documentation): `deal` lists each
/// seat's tiles in seat order, `None` for a tile `viewer` does not see
/// (another seat's, with hidden hands), which the copy fills with a
/// placeholder.
///
/// # Errors
/// `BadHeader` for a deal of the wrong shape, a hidden tile of `viewer`'s
/// own, or a deal in a game without a hand or past its set-up; `Illegal`
/// for a tile not in the bag.
///
/// # Examples
/// ```
/// use engine::{follow_deal, Rules, Seat, State, Tile};
///
/// let mut copy = State::new("hand=2".parse().unwrap(), 2, Seat(0));
/// let deal = [vec![None, None], vec![Some(Tile::U), Some(Tile::V)]];
/// follow_deal(&mut copy, Seat(1), &deal).unwrap();
/// let view = copy.view(Seat(1));
/// assert_eq!(view.own_tiles().iter().collect::<Vec<_>>(), [Tile::U, Tile::V]);
/// assert_eq!(view.tiles_held(Seat(0)), 2);
/// ```
pub fn follow_deal(
    state: &mut State,
    viewer: Seat,
    deal: &[Vec<Option<Tile>>],
) -> Result<(), ReplayReason> {
    let bad = |s: &str| Err(ReplayReason::BadHeader(format!("deal: {s}")));
    let n = state.rules.hand() as usize;
    if n == 0 {
        return match deal.is_empty() {
            true => Ok(()),
            false => bad("a deal is given but the rules have no `hand`"),
        };
    }
    if state.turns != 0 || state.phase != Phase::DrawHand || state.tiles_held(Seat(0)) != 0 {
        return bad("the hands are dealt once, before the first turn");
    }
    if deal.len() != state.players() || deal.iter().any(|tiles| tiles.len() != n) {
        return bad(&format!(
            "{} lists of {n} tiles, one per seat",
            state.players()
        ));
    }
    if deal[viewer.index()].iter().any(Option::is_none) {
        return bad("the seat's own tiles are hidden from it");
    }
    // The tiles seen stay in the bag until they are dealt.
    let mut seen = Bag::empty();
    for t in deal.iter().flatten().flatten() {
        seen.put_back(*t);
    }
    for &entry in deal.iter().flatten() {
        let tile = match entry {
            Some(t) => {
                seen.take(t);
                t
            }
            None => Tile::ALL
                .iter()
                .copied()
                .find(|&t| state.bag.count(t) > seen.count(t))
                .ok_or_else(|| {
                    ReplayReason::BadHeader("deal: more tiles than the bag holds".to_string())
                })?,
        };
        state.draw(tile).map_err(ReplayReason::Illegal)?;
    }
    Ok(())
}

/// A completed turn of a game with hidden hands, in `viewer`'s copy:
/// `hidden.draws` tiles another seat drew into its hand (the turn's
/// `drawn` then unused), and the size of that hand after the turn if
/// `hidden.held` tells it.
pub(super) fn follow_hand_turn(
    state: &mut State,
    viewer: Seat,
    turn: &TurnRecord,
    hidden: crate::Hidden,
) -> Result<(), ReplayReason> {
    let hidden_draws = hidden.draws;
    let seat = Seat(turn.player);
    if state.phase == Phase::Over || seat != state.to_play {
        return apply_turn(state, turn); // which names what is wrong
    }
    let n = state.rules.hand() as usize;
    if seat == viewer {
        if hidden_draws > 0 {
            return Err(ReplayReason::BadTurn(
                "the seat's own draws are hidden from it".to_string(),
            ));
        }
        // Which draws came before the placement the turn does not say.
        let (keep, held) = own_draws(state, turn);
        let draws = turn.drawn.len();
        let before = (0..=n.saturating_sub(held).min(draws)).rev();
        return first_that_replays(state, before, |copy, before| {
            let limits = BagLimits::of(copy, turn, held + before, draws - before);
            copy.redeal(viewer, None, &keep, &limits)?;
            apply_turn(copy, turn)
        });
    }
    // How many of the tiles set aside came from the hand, and how many
    // draws came before the placement, the turn does not say: every
    // split is tried (those that leave the hand size told), and the first
    // that replays is kept (see the module documentation).
    let size = state.tiles_held(seat);
    let placed = usize::from(turn.tile.is_some());
    let leaves = move |from_hand: usize| size - from_hand + hidden_draws;
    let most = size.min(turn.discarded.len());
    let told = (0..=most).filter(|&f| hidden.held.is_none_or(|h| h + placed == leaves(f)));
    let splits = told.flat_map(|from_hand| (0..=hidden_draws).rev().map(move |b| (from_hand, b)));
    first_that_replays(state, splits, |copy, (from_hand, before)| {
        let (hand, keep, concrete, limits) =
            hidden_turn(copy, viewer, turn, hidden_draws, from_hand, before)?;
        copy.redeal(viewer, Some((seat, hand)), &keep, &limits)?;
        apply_turn(copy, &concrete)
    })
}

/// The start of `viewer`'s own turn in progress, in its copy (see
/// [`crate::apply_turn_start`]).
pub(super) fn follow_hand_turn_start(
    state: &mut State,
    viewer: Seat,
    turn: &TurnRecord,
) -> Result<(), ReplayReason> {
    if turn.player != viewer.0 {
        return Err(ReplayReason::BadTurn(format!(
            "the turn in progress is seat {}'s, not seat {}'s",
            turn.player, viewer.0
        )));
    }
    let (keep, held) = own_draws(state, turn);
    let limits = BagLimits::of(state, turn, held + turn.drawn.len(), 0);
    state.redeal(viewer, None, &keep, &limits)?;
    apply_turn_start(state, turn)
}

/// The tiles a turn whose draws are all shown takes from the bag (those
/// set aside after the hand's unplaceable tiles, and those drawn), and
/// how many tiles its hand keeps before drawing.
fn own_draws(state: &State, turn: &TurnRecord) -> (Bag, usize) {
    let hand = state.hands[Seat(turn.player)];
    let stuck = hand.iter().filter(|&t| !state.board.has_fit(t)).count();
    let (keep, _) = bag_draws(state, &turn.discarded, stuck, &turn.drawn);
    (keep, hand.len() - stuck)
}

/// The tiles the bag must hold at the start of a turn for the tiles set
/// aside after the hand's first `from_hand` and the tiles `drawn`, and
/// the tiles it put back into the bag and did not draw again. With
/// `unplaceable: return` a returned tile is back in the bag for the next
/// draw: a tile returned again and again is needed once, and not at all
/// when the hand returned it first (found by the served round trip of
/// `hand=2,unplaceable=return`: the follower looked for a tile its own
/// hand had just returned among the tiles it had not seen); a tile drawn
/// after placing may be one returned before it (the draws into the hand
/// come after every return: a tile returned fits nowhere before placing).
fn bag_draws(state: &State, discarded: &[Tile], from_hand: usize, drawn: &[Tile]) -> (Bag, Bag) {
    let returns = state.rules.returns_unplaceable();
    let mut need = Bag::empty();
    let mut returned = Bag::empty();
    for (i, &t) in discarded.iter().chain(drawn).enumerate() {
        let from_bag = i >= from_hand;
        if from_bag && !(returns && returned.take(t)) {
            need.put_back(t);
        }
        if returns && i < discarded.len() {
            returned.put_back(t);
        }
    }
    (need, returned)
}

/// Another seat's turn with its draws made concrete, for the split where
/// its first `from_hand` set-aside tiles came from its hand and `before`
/// of its `draws` came before its placement: its hand at the start of the
/// turn, the tiles the bag must hold for the turn, the turn with the
/// tiles it drew, and what the turn shows of the rest of the bag.
fn hidden_turn(
    state: &State,
    viewer: Seat,
    turn: &TurnRecord,
    draws: usize,
    from_hand: usize,
    before: usize,
) -> Result<(Hand, Bag, TurnRecord, BagLimits), ReplayReason> {
    let short = || ReplayReason::BadTurn("the hidden draws do not fit the turn".to_string());
    let seat = Seat(turn.player);
    let size = state.tiles_held(seat);
    let kept = size - from_hand;
    let after_count = draws.checked_sub(before).ok_or_else(short)?;
    if kept + before > state.rules.hand() as usize {
        return Err(short());
    }
    let limits = BagLimits::of(state, turn, kept + before, after_count);
    let mut pool = state.unseen_by(viewer);
    let (from_bag, returned) = bag_draws(state, &turn.discarded, from_hand, &[]);
    let shown = turn.discarded[..from_hand]
        .iter()
        .chain(&turn.tile)
        .copied();
    take_all(&mut pool, shown.chain(tiles_of(&from_bag)), viewer)?;
    // The hand and the draws before placing hold tiles that fit; when the
    // draws after placing leave the hand short, those that fit after it
    // first (the bag can hold none of them), else those that do not.
    let fits = |t: Tile| state.board.has_fit(t);
    let held_rank =
        |t: Tile| fits(t).then(|| u8::from(limits.fits_after(t) != limits.short_after()));
    // The hand: the tiles set aside from it, the placed tile if it was
    // held, then tiles that fit.
    let mut hand: Vec<Tile> = turn.discarded[..from_hand].to_vec();
    let mut drawn = Vec::new();
    match turn.tile {
        Some(p) if kept > 0 => hand.push(p),
        Some(p) => drawn.push(p),
        None => {}
    }
    hand.extend(take_ranked(&mut pool, size - hand.len(), held_rank).ok_or_else(short)?);
    let missing = before.checked_sub(drawn.len()).ok_or_else(short)?;
    drawn.extend(take_ranked(&mut pool, missing, held_rank).ok_or_else(short)?);
    // Drawn after placing, from the tiles returned too: tiles that fit the
    // board after it first, one of them last (in the bag for every draw
    // before it); none that fit the board before when the draws before
    // placing stopped short.
    for t in tiles_of(&returned) {
        pool.put_back(t);
    }
    let after_rank = |t: Tile| {
        let banned = limits.short_before && fits(t);
        (!banned).then(|| u8::from(!limits.fits_after(t)))
    };
    let mut after = take_ranked(&mut pool, after_count, after_rank).ok_or_else(short)?;
    after.sort_by_key(|&t| limits.fits_after(t));
    let mut concrete = turn.clone();
    concrete.drawn = [drawn, after].concat();
    let (keep, _) = bag_draws(state, &turn.discarded, from_hand, &concrete.drawn);
    Ok((hand_of(&hand), keep, concrete, limits))
}
