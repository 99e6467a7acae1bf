//! Actions in record notation (`docs/RECORD-FORMAT.md`), the one place that
//! writes and reads them: a placement `U (1, 0) r1 NNE`, a gift opening
//! `open cash_out (0, 1) S`, a Take 2 choice `keep V`.
//!
//! Actions name meeple segments by index on the tile, so writing and
//! reading need the position: [`State::describe`] and
//! [`State::parse_action`]. A gift opening in a record
//! ([`GiftOpenRecord`]) names locations and formats on its own.

use crate::board::Board;
use crate::geom::{Location, Pos, Rotation};
use crate::gifts::{Gift, GiftOpen};
use crate::record::GiftOpenRecord;
use crate::state::State;
use crate::tiles::{segment_at, Tile};
use crate::turn::Action;
use std::fmt;

impl GiftOpenRecord {
    /// The record of `open` played on `board`, its segments named by their
    /// locations; `None` if it names a cell without a tile or a segment
    /// the tile there does not have. Take 2's draws are left empty (the
    /// record builder fills them in as they happen).
    ///
    /// # Examples
    /// ```
    /// use engine::{GiftOpen, GiftOpenRecord, Pos, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let open = GiftOpen::CashOut { at: Pos::ORIGIN, segment: 0 };
    /// let g = GiftOpenRecord::of(open, state.board()).unwrap();
    /// assert_eq!(g.to_string(), "cash_out (0, 0) N");
    /// ```
    pub fn of(open: GiftOpen, board: &Board) -> Option<GiftOpenRecord> {
        let mut g = GiftOpenRecord::new(open.gift());
        let name = |pos: Pos, seg: u8| {
            let p = board.at(pos)?;
            let o = p.tile.oriented(p.rot);
            ((seg as usize) < p.tile.segment_count()).then(|| o.canonical[seg as usize])
        };
        let mut at = |pos: Pos| {
            (g.x, g.y) = (Some(pos.x), Some(pos.y));
            board.at(pos).map(|_| ())
        };
        match open {
            GiftOpen::Synod { at: pos } => at(pos)?,
            GiftOpen::RoadSweeper { at: pos, segment } | GiftOpen::CashOut { at: pos, segment } => {
                at(pos)?;
                g.at = Some(name(pos, segment)?);
            }
            GiftOpen::ChangePosition { at: pos, from, to } => {
                at(pos)?;
                g.from = Some(name(pos, from)?);
                g.to = Some(name(pos, to)?);
            }
            GiftOpen::Take2 | GiftOpen::Wasted(_) => {}
        }
        Some(g)
    }
}

/// A gift opening in record notation: the card, its target cell and
/// locations, and for Take 2 the second tile and the one returned, e.g.
/// `change_position (1, 2) S -> SSE` or `take_2 second V, U back`.
impl fmt::Display for GiftOpenRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.card)?;
        if let (Some(x), Some(y)) = (self.x, self.y) {
            write!(f, " {}", Pos::new(x, y))?;
        }
        for loc in [self.at, self.from].into_iter().flatten() {
            write!(f, " {loc}")?;
        }
        if let Some(to) = self.to {
            write!(f, " -> {to}")?;
        }
        if let Some(second) = self.second {
            write!(f, " second {second}")?;
        }
        if let Some(back) = self.returned {
            write!(f, ", {back} back")?;
        }
        Ok(())
    }
}

/// Text that is not an action in record notation, and why.
///
/// # Examples
/// ```
/// use engine::{Chance, Rules, Seat, State, Tile};
///
/// let mut state = State::new(Rules::default(), 2, Seat(0));
/// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
/// let err = state.parse_action("U (1, 0) r9").unwrap_err();
/// assert_eq!(err.text, "U (1, 0) r9");
/// assert!(err.to_string().starts_with("bad action \"U (1, 0) r9\": "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseActionError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad action {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseActionError {}

impl State {
    /// `action` in record notation (for logs, messages and protocols): e.g.
    /// `U (1, 0) r1 NNE`, `open cash_out (0, 1) S`, `keep V`.
    /// [`State::parse_action`] reads it back. An action naming cells or
    /// segments that do not exist is shown with its raw fields.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let action = state.parse_action("U (1, 0) r1 NNW").unwrap();
    /// assert_eq!(state.describe(action), "U (1, 0) r1 NNW");
    /// ```
    pub fn describe(&self, action: Action) -> String {
        match action {
            Action::Place(m) => match self.placing_tile(m.placement.slot) {
                Some(t) => m.display(t).to_string(),
                None => format!("{m:?}"),
            },
            Action::Open(open) => match GiftOpenRecord::of(open, self.board()) {
                Some(g) => format!("open {g}"),
                None => format!("open {open:?}"),
            },
            Action::Keep(t) => format!("keep {t}"),
        }
    }

    /// Read an action of the seat to play in record notation (as written
    /// by [`State::describe`]). Only the notation is checked, not the
    /// rules: use [`State::check_action`] for that.
    ///
    /// # Errors
    /// A [`ParseActionError`] if the text is not an action in record
    /// notation, names a tile other than the drawn one (with a hand: a tile
    /// not in the seat's hand; the action takes the first slot holding
    /// it), or a location that the tile (in that rotation, or at that
    /// cell) does not have.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::V)).unwrap();
    /// assert!(matches!(state.parse_action("V (0, -1) r0"), Ok(Action::Place(_))));
    /// assert!(state.parse_action("U (0, -1) r0").is_err()); // V was drawn
    /// ```
    pub fn parse_action(&self, text: &str) -> Result<Action, ParseActionError> {
        let fail = |reason: &str| ParseActionError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let spaced: String = text
            .chars()
            .map(|c| if matches!(c, '(' | ')' | ',') { ' ' } else { c })
            .collect();
        let words: Vec<&str> = spaced.split_whitespace().collect();
        let tile = |w: &str| w.parse::<Tile>().map_err(|e| fail(&e.to_string()));
        let loc = |w: &str| w.parse::<Location>().map_err(|e| fail(&e.to_string()));
        let pos = |x: &str, y: &str| match (x.parse::<i8>(), y.parse::<i8>()) {
            (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
            _ => Err(fail("a cell is written (x, y)")),
        };
        match words.as_slice() {
            ["keep", t] => Ok(Action::Keep(tile(t)?)),
            ["open", card, rest @ ..] => {
                let gift: Gift = card
                    .parse()
                    .map_err(|e: crate::ParseGiftError| fail(&e.to_string()))?;
                self.parse_open(gift, rest, &fail).map(Action::Open)
            }
            [t, x, y, r, rest @ ..] if rest.len() <= 1 => {
                let t = tile(t)?;
                let slot = match self.phase() {
                    crate::Phase::PlaceHand => self
                        .held(self.to_play())
                        .slot_of(t)
                        .ok_or_else(|| fail("that tile is not in the hand"))?,
                    _ if self.drawn_tile() == Some(t) => 0,
                    _ => return Err(fail("that is not the drawn tile")),
                };
                let rot = r
                    .strip_prefix('r')
                    .and_then(|r| r.parse::<u8>().ok())
                    .and_then(Rotation::new)
                    .ok_or_else(|| fail("a rotation is written r0 to r3"))?;
                let mut mv = crate::Move::place(pos(x, y)?, rot).from_slot(slot);
                if let [l] = rest {
                    let seg = segment_at(t, rot, loc(l)?)
                        .ok_or_else(|| fail("the tile has no segment there"))?;
                    mv = mv.with_meeple(seg);
                }
                Ok(Action::Place(mv))
            }
            _ => Err(fail(
                "expected `T (x, y) rN [LOC]`, `open CARD ...` or `keep T`",
            )),
        }
    }

    /// The target of a gift opening: `rest` is what follows the card.
    fn parse_open(
        &self,
        gift: Gift,
        rest: &[&str],
        fail: &dyn Fn(&str) -> ParseActionError,
    ) -> Result<GiftOpen, ParseActionError> {
        let [x, y, locs @ ..] = rest else {
            return match (gift, rest) {
                (Gift::Take2, []) => Ok(GiftOpen::Take2),
                (_, []) => Ok(GiftOpen::Wasted(gift)),
                _ => Err(fail("a target is written (x, y) [LOC [-> LOC]]")),
            };
        };
        let (Ok(x), Ok(y)) = (x.parse::<i8>(), y.parse::<i8>()) else {
            return Err(fail("a cell is written (x, y)"));
        };
        let at = Pos::new(x, y);
        let placed = self
            .board()
            .at(at)
            .ok_or_else(|| fail("no tile at that cell"))?;
        let seg = |w: &str| {
            let l = w.parse::<Location>().map_err(|e| fail(&e.to_string()))?;
            segment_at(placed.tile, placed.rot, l)
                .ok_or_else(|| fail("the tile has no segment there"))
        };
        match (gift, locs) {
            (Gift::Synod, []) => Ok(GiftOpen::Synod { at }),
            (Gift::RoadSweeper, [l]) => Ok(GiftOpen::RoadSweeper {
                at,
                segment: seg(l)?,
            }),
            (Gift::CashOut, [l]) => Ok(GiftOpen::CashOut {
                at,
                segment: seg(l)?,
            }),
            (Gift::ChangePosition, [from, "->", to]) => Ok(GiftOpen::ChangePosition {
                at,
                from: seg(from)?,
                to: seg(to)?,
            }),
            _ => Err(fail("wrong target for that card")),
        }
    }
}
