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

use super::State;
use crate::bag::Bag;
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
    /// takes the first unseen tiles by kind, the bag the rest. Then the
    /// turn to play starts again with its new hand.
    fn redeal(
        &mut self,
        viewer: Seat,
        fixed: Option<(Seat, Hand)>,
        keep: &Bag,
    ) -> Result<(), ReplayReason> {
        let mut pool = self.unseen_by(viewer);
        let fixed_tiles = fixed.iter().flat_map(|(_, h)| h.iter());
        take_all(&mut pool, fixed_tiles.chain(tiles_of(keep)), viewer)?;
        for seat in (0..self.players).map(Seat).filter(|&s| s != viewer) {
            self.hands[seat] = match fixed {
                Some((f, hand)) if f == seat => hand,
                _ => {
                    // Placeable tiles first: with `unplaceable: return` a
                    // hand left short says the bag holds none, so the copy
                    // keeps as few there as the unseen tiles allow.
                    let size = self.hands[seat].len();
                    let board = &self.board;
                    let mut tiles = Vec::with_capacity(size);
                    for fits in [true, false] {
                        let more =
                            take_up_to(&mut pool, size - tiles.len(), |t| board.has_fit(t) == fits);
                        tiles.extend(more);
                    }
                    if tiles.len() < size {
                        return Err(ReplayReason::BadTurn(
                            "more tiles drawn than the bag holds".to_string(),
                        ));
                    }
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

/// Take the first `n` tiles of `pool` by kind that pass `fits`.
fn take_first(pool: &mut Bag, n: usize, fits: impl Fn(Tile) -> bool) -> Option<Vec<Tile>> {
    let taken = take_up_to(pool, n, fits);
    (taken.len() == n).then_some(taken)
}

/// Take the first `n` tiles of `pool` by kind that pass `fits`, or as many
/// as it holds.
fn take_up_to(pool: &mut Bag, n: usize, fits: impl Fn(Tile) -> bool) -> Vec<Tile> {
    let mut taken = Vec::with_capacity(n);
    for t in Tile::ALL.iter().copied().filter(|&t| fits(t)) {
        while taken.len() < n && pool.take(t) {
            taken.push(t);
        }
    }
    taken
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
/// `hidden_draws` tiles another seat drew into its hand (the turn's
/// `drawn` then unused).
pub(super) fn follow_hand_turn(
    state: &mut State,
    viewer: Seat,
    turn: &TurnRecord,
    hidden_draws: usize,
) -> Result<(), ReplayReason> {
    let seat = Seat(turn.player);
    if state.phase == Phase::Over || seat != state.to_play {
        return apply_turn(state, turn); // which names what is wrong
    }
    if seat == viewer {
        if hidden_draws > 0 {
            return Err(ReplayReason::BadTurn(
                "the seat's own draws are hidden from it".to_string(),
            ));
        }
        let keep = own_draws(state, turn);
        state.redeal(viewer, None, &keep)?;
        return apply_turn(state, turn);
    }
    // How many of the tiles set aside came from the hand follows from the
    // counts; every split is tried, and only the true one replays.
    let most = state.tiles_held(seat).min(turn.discarded.len());
    let mut last = None;
    for from_hand in 0..=most {
        let mut copy = state.clone();
        let tried = hidden_turn(state, viewer, turn, hidden_draws, from_hand).and_then(
            |(hand, keep, concrete)| {
                copy.redeal(viewer, Some((seat, hand)), &keep)?;
                apply_turn(&mut copy, &concrete)
            },
        );
        match tried {
            Ok(()) => {
                *state = copy;
                return Ok(());
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("at least one split is tried"))
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
    let keep = own_draws(state, turn);
    state.redeal(viewer, None, &keep)?;
    apply_turn_start(state, turn)
}

/// The tiles a turn whose draws are all shown takes from the bag: those
/// set aside after the hand's unplaceable tiles, and those drawn.
fn own_draws(state: &State, turn: &TurnRecord) -> Bag {
    let seat = Seat(turn.player);
    let stuck = state.hands[seat]
        .iter()
        .filter(|&t| !state.board.has_fit(t))
        .count();
    let mut keep = bag_draws(state, &turn.discarded, stuck);
    for &t in &turn.drawn {
        keep.put_back(t);
    }
    keep
}

/// The tiles the bag must hold at the start of a turn for the tiles set
/// aside after the hand's first `from_hand`. With `unplaceable: return`
/// a returned tile is back in the bag for the next draw: a tile returned
/// again and again is needed once, and not at all when the hand returned
/// it first (found by the served round trip of `hand=2,unplaceable=return`:
/// the follower looked for a tile its own hand had just returned among
/// the tiles it had not seen).
fn bag_draws(state: &State, discarded: &[Tile], from_hand: usize) -> Bag {
    let returns = state.rules.returns_unplaceable();
    let mut need = Bag::empty();
    let mut returned = Bag::empty();
    if returns {
        for &t in &discarded[..from_hand] {
            returned.put_back(t);
        }
    }
    for &t in &discarded[from_hand..] {
        if !(returns && returned.take(t)) {
            need.put_back(t);
        }
        if returns {
            returned.put_back(t);
        }
    }
    need
}

/// Another seat's turn with its draws made concrete, for the split where
/// its first `from_hand` set-aside tiles came from its hand: its hand at
/// the start of the turn, the tiles the bag must hold for the turn, and
/// the turn with the tiles it drew.
fn hidden_turn(
    state: &State,
    viewer: Seat,
    turn: &TurnRecord,
    draws: usize,
    from_hand: usize,
) -> Result<(Hand, Bag, TurnRecord), ReplayReason> {
    let short = || ReplayReason::BadTurn("the hidden draws do not fit the turn".to_string());
    let seat = Seat(turn.player);
    let size = state.tiles_held(seat);
    let mut pool = state.unseen_by(viewer);
    let from_bag = bag_draws(state, &turn.discarded, from_hand);
    let shown = turn.discarded[..from_hand]
        .iter()
        .chain(&turn.tile)
        .copied();
    take_all(&mut pool, shown.chain(tiles_of(&from_bag)), viewer)?;
    let placeable = |t: Tile| state.board.has_fit(t);
    // The hand: the tiles set aside from it, the placed tile if it was
    // held, then any placeable tiles.
    let mut hand: Vec<Tile> = turn.discarded[..from_hand].to_vec();
    let mut before = Vec::new();
    match turn.tile {
        Some(p) if size > from_hand => hand.push(p),
        Some(p) => before.push(p),
        None => {}
    }
    hand.extend(take_first(&mut pool, size - hand.len(), placeable).ok_or_else(short)?);
    // Drawn before placing: back up to the hand size while the bag lasts.
    let set_aside = match state.rules.returns_unplaceable() {
        true => 0, // returned tiles are back in the bag
        false => turn.discarded.len() - from_hand,
    };
    let bag_left = (state.bag.total() as usize)
        .checked_sub(set_aside)
        .ok_or_else(short)?;
    let refill = (state.rules.hand() as usize - (size - from_hand)).min(bag_left);
    let missing = refill.checked_sub(before.len()).ok_or_else(short)?;
    before.extend(take_first(&mut pool, missing, placeable).ok_or_else(short)?);
    let after_count = draws.checked_sub(refill).ok_or_else(short)?;
    let after = take_first(&mut pool, after_count, |_| true).ok_or_else(short)?;
    let mut keep = from_bag;
    let mut concrete = turn.clone();
    concrete.drawn = [before, after].concat();
    for &t in &concrete.drawn {
        keep.put_back(t);
    }
    Ok((hand_of(&hand), keep, concrete))
}
