//! The Gifts in the turn (RULES.md §5): receiving a card after placing,
//! opening one before placing, and Take 2's choice.

use super::{Meeple, State};
use crate::features::{segment_id, SegmentId};
use crate::geom::Pos;
use crate::gifts::{Gift, GiftCards, GiftOpen};
use crate::moves::IllegalMove;
use crate::seat::Seat;
use crate::tiles::{FeatureKind, Tile, NO_SEGMENT};
use crate::turn::Phase;

impl State {
    // ----- Public information about the cards -------------------------------

    /// Cards `seat` holds (their kinds are hidden from other seats).
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert_eq!(state.hand_size(Seat(1)), 0); // nobody starts with a card
    /// ```
    #[inline]
    pub fn hand_size(&self, seat: Seat) -> u8 {
        self.gifts.hands[seat.index()].total()
    }

    /// The open discard pile.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert!(state.gift_discard().is_empty());
    /// ```
    #[inline]
    pub fn gift_discard(&self) -> GiftCards {
        self.gifts.discard
    }

    /// The cards the gift deck was made of when it was last formed: all
    /// 25 at the start, later the discard pile shuffled into it (public:
    /// the pile lay face up). The deck is always a part of these.
    ///
    /// # Examples
    /// ```
    /// use engine::{GiftCards, Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert_eq!(state.gift_deck_pool(), GiftCards::FULL);
    /// ```
    #[inline]
    pub fn gift_deck_pool(&self) -> GiftCards {
        self.gifts.pool
    }

    /// Cards left in the face-down deck (its kinds are hidden).
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert_eq!(state.gift_deck_size(), 25);
    /// ```
    #[inline]
    pub fn gift_deck_size(&self) -> u8 {
        self.gifts.deck.total()
    }

    /// The seat to play has opened a gift this turn.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert!(!state.gift_opened());
    /// ```
    #[inline]
    pub fn gift_opened(&self) -> bool {
        self.gifts.opened
    }

    // ----- Hidden information: for the engine, replay and the own view ----

    /// The cards in `seat`'s hand. Hidden information: agents get their
    /// own hand through [`crate::SeatView::own_hand`] only.
    #[inline]
    pub(crate) fn hand(&self, seat: Seat) -> GiftCards {
        self.gifts.hands[seat.index()]
    }

    /// The cards in the face-down deck: the chance outcomes of a gift
    /// draw, each kind with its count. This reveals hidden information: it
    /// is for the game's driver (the environment), never for an agent.
    ///
    /// # Examples
    /// ```
    /// use engine::{GiftCards, Rules, Seat, State};
    ///
    /// let state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// assert_eq!(state.gift_deck(), GiftCards::FULL);
    /// ```
    pub fn gift_deck(&self) -> GiftCards {
        self.gifts.deck
    }

    /// Replace the hidden card holdings (deck and hands) with a sample, for
    /// determinization. The caller keeps the totals consistent.
    pub(crate) fn set_hidden_cards(&mut self, deck: GiftCards, hands: &[GiftCards]) {
        self.gifts.deck = deck;
        for (s, h) in hands.iter().enumerate() {
            self.gifts.hands[s] = *h;
        }
    }

    // ----- Receiving --------------------------------------------------------

    /// The tile in `slot` (just placed, before any meeple) extends a road
    /// or city that holds meeples and in which the seat to play is not
    /// among the majority.
    pub(super) fn extends_foreign_feature(&mut self, slot: usize) -> bool {
        let tile = self.board.placed(slot).tile;
        for (i, seg) in tile.def().segments.iter().enumerate() {
            if !matches!(seg.kind, FeatureKind::Road | FeatureKind::City) {
                continue;
            }
            let root = self.features.find(segment_id(slot, i as u8));
            if self.features.meeples(root) == 0 {
                continue;
            }
            let counts = self.meeples_on(root);
            let most = *counts.0.iter().max().expect("six seats");
            if counts[self.to_play] < most {
                return true;
            }
        }
        false
    }

    /// The seat to play receives `gift` from the deck (the chance outcome
    /// of [`Phase::DrawGift`]); then the turn passes.
    ///
    /// # Errors
    /// [`IllegalMove::WrongPhase`] outside [`Phase::DrawGift`],
    /// [`IllegalMove::GiftNotInDeck`] if no such card is left; nothing changes.
    pub(crate) fn receive_gift(&mut self, gift: Gift) -> Result<(), IllegalMove> {
        if self.phase != Phase::DrawGift {
            return Err(IllegalMove::WrongPhase(self.phase));
        }
        if !self.gifts.deck.take(gift) {
            return Err(IllegalMove::GiftNotInDeck(gift));
        }
        self.gifts.hands[self.to_play.index()].add(gift);
        self.end_turn();
        Ok(())
    }

    // ----- Opening ----------------------------------------------------------

    /// Calls `f` for every gift the seat to play may open now, with every
    /// target: one Road Sweeper per unfinished road, one Cash Out per
    /// occupied segment, and so on; a card with no target at all is listed
    /// once as [`GiftOpen::Wasted`].
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// let mut openings = 0;
    /// state.for_each_gift_open(|_| openings += 1);
    /// assert_eq!(openings, 0); // seat 0 holds no card yet
    /// ```
    pub fn for_each_gift_open(&self, mut f: impl FnMut(GiftOpen)) {
        if !self.may_open_gift() {
            return;
        }
        for gift in self.hand(self.to_play).kinds() {
            let mut any = false;
            self.for_each_target(gift, &mut |g| {
                any = true;
                f(g);
            });
            if !any {
                f(GiftOpen::Wasted(gift));
            }
        }
    }

    /// The seat to play may open a gift now: The Gifts is on, a tile is
    /// drawn, no gift was opened this turn, and the seat holds one.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert!(!state.may_open_gift()); // an empty hand
    /// ```
    #[inline]
    pub fn may_open_gift(&self) -> bool {
        self.rules().gifts
            && matches!(self.phase, Phase::Place(_))
            && !self.gifts.opened
            && !self.hand(self.to_play).is_empty()
    }

    /// Every effective opening of `gift` for the seat to play.
    fn for_each_target(&self, gift: Gift, f: &mut dyn FnMut(GiftOpen)) {
        let seat = self.to_play;
        match gift {
            Gift::Synod => {
                if self.supply[seat] == 0 {
                    return;
                }
                for p in self.board.tiles() {
                    if p.tile.oriented(p.rot).monastery != NO_SEGMENT && p.surrounded < 8 {
                        f(GiftOpen::Synod { at: p.pos });
                    }
                }
            }
            Gift::RoadSweeper => {
                for (slot, p) in self.board.tiles().iter().enumerate() {
                    for (i, seg) in p.tile.def().segments.iter().enumerate() {
                        let id = segment_id(slot, i as u8);
                        // One opening per road: the segment that is its root.
                        if seg.kind == FeatureKind::Road
                            && self.features.root(id) == id
                            && self.features.open(id) > 0
                        {
                            f(GiftOpen::RoadSweeper {
                                at: p.pos,
                                segment: i as u8,
                            });
                        }
                    }
                }
            }
            Gift::CashOut | Gift::ChangePosition => {
                let mine = self.meeples();
                for (k, m) in mine.iter().enumerate() {
                    let first_here = !mine[..k]
                        .iter()
                        .any(|o| o.seat == seat && o.segment == m.segment);
                    if m.seat != seat || !first_here {
                        continue;
                    }
                    let at = self.board.placed(m.slot()).pos;
                    let segment = m.segment_index();
                    if gift == Gift::CashOut {
                        f(GiftOpen::CashOut { at, segment });
                    } else {
                        let tile = self.board.placed(m.slot()).tile;
                        for to in 0..tile.segment_count() as u8 {
                            if self.position_change_ok(m.slot(), segment, to).is_ok() {
                                f(GiftOpen::ChangePosition {
                                    at,
                                    from: segment,
                                    to,
                                });
                            }
                        }
                    }
                }
            }
            Gift::Take2 => f(GiftOpen::Take2),
        }
    }

    /// Why a meeple cannot change position from segment `from` to `to` of
    /// the tile in `slot`: it must go between a field and a road, city or
    /// monastery, onto an unfinished feature, and onto a field only with
    /// farmers.
    fn position_change_ok(&self, slot: usize, from: u8, to: u8) -> Result<(), &'static str> {
        let segs = self.board.placed(slot).tile.def().segments;
        let (Some(a), Some(b)) = (segs.get(from as usize), segs.get(to as usize)) else {
            return Err("no such location on that tile");
        };
        let lying = |k: FeatureKind| k == FeatureKind::Field;
        if lying(a.kind) == lying(b.kind) {
            return Err("a meeple moves between a field and a road, city or monastery");
        }
        if lying(b.kind) {
            if !self.rules().farmers {
                return Err("farmers are off");
            }
        } else if self.is_complete(segment_id(slot, to)) {
            return Err("that feature is finished");
        }
        Ok(())
    }

    /// The index in the meeple list of a meeple of `seat` on segment `id`.
    fn own_meeple(&self, seat: Seat, id: SegmentId) -> Option<usize> {
        self.meeples()
            .iter()
            .position(|m| m.seat == seat && m.segment == id)
    }

    /// Why opening `open` is illegal now, if it is.
    ///
    /// # Errors
    /// The [`IllegalMove`]: gifts off, a gift already opened this turn, a card
    /// not held, or a target that is not valid (and why).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, GiftOpen, IllegalMove, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert_eq!(state.check_open(GiftOpen::Take2), Err(IllegalMove::GiftsOff));
    /// ```
    pub fn check_open(&self, open: GiftOpen) -> Result<(), IllegalMove> {
        if !self.rules().gifts {
            return Err(IllegalMove::GiftsOff);
        }
        if !matches!(self.phase, Phase::Place(_)) {
            return Err(IllegalMove::WrongPhase(self.phase));
        }
        if self.gifts.opened {
            return Err(IllegalMove::GiftAlreadyOpened);
        }
        let gift = open.gift();
        if self.hand(self.to_play).count(gift) == 0 {
            return Err(IllegalMove::GiftNotHeld(gift));
        }
        let bad = |why: &'static str| Err(IllegalMove::GiftTarget(gift, why));
        let seat = self.to_play;
        let slot_at = |at: Pos| {
            self.board
                .slot_at(at)
                .ok_or(IllegalMove::GiftTarget(gift, "no tile there"))
        };
        let segment_of = |slot: usize, seg: u8, kind: Option<FeatureKind>| {
            let segs = self.board.placed(slot).tile.def().segments;
            match segs.get(seg as usize) {
                Some(s) if kind.is_none_or(|k| s.kind == k) => Ok(segment_id(slot, seg)),
                _ => Err(IllegalMove::GiftTarget(
                    gift,
                    "no such feature on that tile",
                )),
            }
        };
        match open {
            GiftOpen::Synod { at } => {
                let slot = slot_at(at)?;
                let p = self.board.placed(slot);
                if p.tile.oriented(p.rot).monastery == NO_SEGMENT {
                    return bad("no monastery there");
                }
                if p.surrounded == 8 {
                    return bad("the monastery is finished");
                }
                if self.supply[seat] == 0 {
                    return Err(IllegalMove::NoMeepleLeft);
                }
            }
            GiftOpen::RoadSweeper { at, segment } => {
                let id = segment_of(slot_at(at)?, segment, Some(FeatureKind::Road))?;
                if self.is_complete(id) {
                    return bad("the road is finished");
                }
            }
            GiftOpen::CashOut { at, segment } => {
                let id = segment_of(slot_at(at)?, segment, None)?;
                if self.own_meeple(seat, id).is_none() {
                    return bad("no meeple of yours there");
                }
            }
            GiftOpen::ChangePosition { at, from, to } => {
                let slot = slot_at(at)?;
                let id = segment_of(slot, from, None)?;
                segment_of(slot, to, None)?;
                if self.own_meeple(seat, id).is_none() {
                    return bad("no meeple of yours there");
                }
                self.position_change_ok(slot, from, to)
                    .map_err(|why| IllegalMove::GiftTarget(gift, why))?;
            }
            GiftOpen::Take2 => {}
            GiftOpen::Wasted(g) => {
                let mut any = false;
                self.for_each_target(g, &mut |_| any = true);
                if any {
                    return bad("the card can take effect: name its target");
                }
            }
        }
        Ok(())
    }

    /// Open a gift (legal, checked only by `debug_assert!`) and resolve it.
    pub(super) fn open_unchecked(&mut self, open: GiftOpen) {
        debug_assert_eq!(self.check_open(open), Ok(()));
        let Phase::Place(tile) = self.phase else {
            unreachable!("opening a gift outside the place phase");
        };
        let seat = self.to_play;
        let gift = open.gift();
        self.gifts.hands[seat.index()].take(gift);
        self.gifts.discard.add(gift);
        self.gifts.opened = true;
        let id_at =
            |s: &Self, at: Pos, seg: u8| segment_id(s.board.slot_at(at).expect("checked"), seg);
        match open {
            GiftOpen::Synod { at } => {
                let slot = self.board.slot_at(at).expect("checked");
                let p = self.board.placed(slot);
                let id = segment_id(slot, p.tile.oriented(p.rot).monastery);
                self.add_meeple(seat, id);
            }
            GiftOpen::RoadSweeper { at, segment } => {
                let root = self.features.find(id_at(self, at, segment));
                let points = self.features.tiles(root) as u16;
                self.award(root, points, FeatureKind::Road);
                self.remove_meeples(root);
            }
            GiftOpen::CashOut { at, segment } => {
                let id = id_at(self, at, segment);
                let root = self.features.find(id);
                let points = 2 * self.features.meeples(root) as u16;
                let kind = self.segment_kind(id);
                self.add_points(seat, kind, points);
                let k = self.own_meeple(seat, id).expect("checked");
                self.return_meeple_at(k);
                self.features.add_meeples(root, -1);
            }
            GiftOpen::ChangePosition { at, from, to } => {
                let slot = self.board.slot_at(at).expect("checked");
                let (old, new) = (segment_id(slot, from), segment_id(slot, to));
                let k = self.own_meeple(seat, old).expect("checked");
                self.meeples[k].segment = new;
                let (ro, rn) = (self.features.find(old), self.features.find(new));
                self.features.add_meeples(ro, -1);
                self.features.add_meeples(rn, 1);
            }
            GiftOpen::Take2 => {
                if self.tile_draw_due() {
                    self.phase = Phase::DrawSecond(tile);
                }
            }
            GiftOpen::Wasted(_) => {}
        }
    }

    /// Put a meeple of `seat` from its supply on segment `id`.
    pub(super) fn add_meeple(&mut self, seat: Seat, id: SegmentId) {
        let root = self.features.find(id);
        self.features.add_meeples(root, 1);
        self.meeples[self.meeple_len as usize] = Meeple { seat, segment: id };
        self.meeple_len += 1;
        self.supply[seat] -= 1;
    }

    // ----- Take 2's choice --------------------------------------------------

    pub(super) fn check_keep(&self, tile: Tile) -> Result<(), IllegalMove> {
        match self.phase {
            Phase::Choose(a, b) if tile == a || tile == b => Ok(()),
            Phase::Choose(..) => Err(IllegalMove::NotDrawn(tile)),
            other => Err(IllegalMove::WrongPhase(other)),
        }
    }

    pub(super) fn keep_unchecked(&mut self, tile: Tile) {
        let Phase::Choose(a, b) = self.phase else {
            unreachable!("keep outside the choose phase");
        };
        let other = if tile == a { b } else { a };
        self.bag.put_back(other);
        self.placements = self.board.fit_count(tile) as u16;
        self.phase = Phase::Place(tile);
    }
}
