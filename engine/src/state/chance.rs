//! Chance: drawing tiles from the bag (and gift cards), at random or as
//! given, and the chance outcomes with their probabilities.

use super::State;
use crate::geom::{Pos, Rotation};
use crate::gifts::Gift;
use crate::moves::IllegalMove;
use crate::tiles::Tile;
use crate::turn::{Chance, ChanceOutcome, Drawn, Phase};
use rand::Rng;

impl State {
    /// The outcomes of the chance event due now, each with its
    /// probability: a tile kind left in the bag in [`Phase::Draw`] and
    /// [`Phase::DrawSecond`], a gift card kind left in the deck in
    /// [`Phase::DrawGift`]; empty when no chance event is due. This reads
    /// the hidden gift deck: it is for the game's driver, not an agent.
    ///
    /// With `unplaceable: return` an unplaceable draw goes back into the
    /// bag and leaves the state as it was, so the outcomes are the
    /// placeable kinds only, each with the probability that it is the
    /// tile finally drawn (its count over the placeable tiles' count).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// let outcomes = state.chance_outcomes();
    /// assert_eq!(outcomes.len(), 24); // every kind is left at the start
    /// let (_, p) = outcomes.iter().find(|(c, _)| *c == Chance::Tile(Tile::D)).unwrap();
    /// assert_eq!(*p, 3.0 / 71.0);
    /// ```
    pub fn chance_outcomes(&self) -> Vec<(Chance, f64)> {
        if let Some(tile) = self.certain_set_aside() {
            return vec![(Chance::Tile(tile), 1.0)];
        }
        match self.phase {
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawHand => {
                // The start draw (empty board) fits anywhere, and a draw
                // into a hand after placing takes any tile.
                let any_tile = !self.rules.returns_unplaceable()
                    || self.board.is_empty()
                    || self.phase == Phase::DrawHand;
                let counted = |t: Tile| any_tile || self.board.has_fit(t);
                let kinds: Vec<(Tile, u8)> = self.bag.iter().filter(|&(t, _)| counted(t)).collect();
                let total: f64 = kinds.iter().map(|&(_, c)| f64::from(c)).sum();
                let outcomes = kinds
                    .into_iter()
                    .map(|(t, c)| (Chance::Tile(t), f64::from(c) / total));
                outcomes.collect()
            }
            Phase::DrawGift => {
                let deck = self.gifts.deck;
                let total = deck.total() as f64;
                let kinds = deck
                    .kinds()
                    .map(|g| (Chance::Gift(g), deck.count(g) as f64 / total));
                kinds.collect()
            }
            _ => Vec::new(),
        }
    }

    /// Apply a given outcome of the chance event due now (one of
    /// [`State::chance_outcomes`], or any tile or card left).
    ///
    /// A tile ([`Chance::Tile`]) is drawn from the bag for the seat to
    /// play. An unplaceable tile is set aside (and the game ends if the bag
    /// is then empty), or with `unplaceable: return` put back into the bag
    /// ([`Drawn::Returned`]: nothing changes, draw again). With
    /// `start_in_bag` the first draw of the game is the start tile, placed
    /// at the origin in rotation 0 ([`Drawn::Start`]). After Take 2
    /// ([`Phase::DrawSecond`]) this draws the second tile: a placeable one
    /// leads to [`Phase::Choose`]; when the bag runs out first, the seat
    /// places the tile it holds.
    ///
    /// A gift card ([`Chance::Gift`], in [`Phase::DrawGift`]) goes from
    /// the deck into the hand of the seat to play; then the turn passes.
    ///
    /// # Errors
    /// [`IllegalMove`] (and nothing changes) if no such chance event is
    /// due ([`IllegalMove::GameOver`], [`IllegalMove::TileAlreadyDrawn`],
    /// [`IllegalMove::WrongPhase`]) or the tile or card is not left
    /// ([`IllegalMove::NotInBag`], [`IllegalMove::GiftNotInDeck`]).
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, ChanceOutcome, Drawn, Gift, Phase, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// let outcome = state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert_eq!(outcome, ChanceOutcome::Tile(Tile::U, Drawn::Placeable));
    /// assert_eq!(state.phase(), Phase::Place(Tile::U));
    /// // U must be placed first; and no gift card is due.
    /// assert!(state.apply_chance_outcome(Chance::Tile(Tile::V)).is_err());
    /// assert!(state.apply_chance_outcome(Chance::Gift(Gift::Synod)).is_err());
    /// ```
    pub fn apply_chance_outcome(&mut self, chance: Chance) -> Result<ChanceOutcome, IllegalMove> {
        match chance {
            Chance::Tile(tile) => Ok(ChanceOutcome::Tile(tile, self.draw(tile)?)),
            Chance::Gift(gift) => {
                self.receive_gift(gift)?;
                Ok(ChanceOutcome::Gift(gift))
            }
        }
    }

    /// `tile` has a legal placement on the current board.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(Tile::ALL.iter().all(|&t| state.is_placeable(t))); // the start tile takes anything
    /// ```
    #[inline]
    pub fn is_placeable(&self, tile: Tile) -> bool {
        self.board.has_fit(tile)
    }

    /// Draw `tile` from the bag for the seat to play. An unplaceable tile
    /// is set aside (and the game ends if the bag is then empty), or with
    /// `unplaceable: return` put back into the bag ([`Drawn::Returned`]:
    /// nothing changes, draw again). With `start_in_bag` the first draw of
    /// the game is the start tile, placed at the origin in rotation 0
    /// ([`Drawn::Start`]).
    ///
    /// After Take 2 ([`Phase::DrawSecond`]) this draws the second tile: a
    /// placeable one leads to [`Phase::Choose`]; when the bag runs out
    /// first, the seat places the tile it holds.
    ///
    /// # Errors
    /// [`IllegalMove::NotInBag`] if no such tile is left, and a phase error
    /// ([`IllegalMove::GameOver`], [`IllegalMove::TileAlreadyDrawn`]) if no tile
    /// draw is due; the state is then unchanged.
    pub(crate) fn draw(&mut self, tile: Tile) -> Result<Drawn, IllegalMove> {
        if self.phase == Phase::Draw && self.board.is_empty() {
            if !self.bag.take(tile) {
                return Err(IllegalMove::NotInBag(tile));
            }
            self.put_tile(tile, Rotation::default(), Pos::ORIGIN);
            if self.rules.hand() > 0 {
                self.start_deal();
            }
            return Ok(Drawn::Start);
        }
        if self.rules.hand() > 0 {
            return self.draw_with_hand(tile);
        }
        let first = match self.phase {
            Phase::Draw => None,
            Phase::DrawSecond(first) => Some(first),
            Phase::Over => return Err(IllegalMove::GameOver),
            _ => return Err(IllegalMove::TileAlreadyDrawn),
        };
        if !self.bag.take(tile) {
            return Err(IllegalMove::NotInBag(tile));
        }
        Ok(self.drawn_from_bag(tile, first))
    }

    /// The rest of [`State::draw`] without a hand once `tile` is taken
    /// from the bag: place it, or hold it with `first` for Take 2's
    /// choice, or set it aside or put it back when it fits nowhere.
    #[inline]
    fn drawn_from_bag(&mut self, tile: Tile, first: Option<Tile>) -> Drawn {
        let placements = self.board.fit_count(tile);
        if placements > 0 {
            self.phase = match first {
                None => {
                    self.placements = placements as u16;
                    Phase::Place(tile)
                }
                Some(first) => Phase::Choose(first, tile),
            };
            Drawn::Placeable
        } else if self.rules.returns_unplaceable() {
            // A placeable tile is left (else no draw would be due), so
            // drawing again ends with probability 1.
            self.bag.put_back(tile);
            Drawn::Returned
        } else {
            if self.bag.is_empty() {
                match first {
                    None => self.finish(),
                    Some(first) => self.phase = Phase::Place(first),
                }
            }
            Drawn::SetAside
        }
    }

    /// Resolve whatever chance event is due (a tile or a gift card) with
    /// `rng`, every outcome weighted by its count (each tile left, or each
    /// card in the deck, equally likely), as
    /// [`State::apply_chance_outcome`] would apply it. With tiles in hand
    /// (RULES.md §8), a tile of the hand that must be set aside is set
    /// aside first, without using `rng`.
    ///
    /// # Panics
    /// If the phase is not a chance phase.
    ///
    /// # Examples
    /// ```
    /// use engine::{ChanceOutcome, Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    /// assert!(matches!(state.apply_chance(&mut rng), ChanceOutcome::Tile(..)));
    /// ```
    ///
    /// A gift card, once a seat has earned one:
    /// ```
    /// use engine::{random_action, ChanceOutcome, Phase, Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    /// let mut state = State::new(Rules { gifts: true, ..Rules::STANDARD }, 2, Seat(0));
    /// // Play until someone extends an opponent's road or city and earns a card.
    /// while state.phase() != Phase::DrawGift {
    ///     if state.is_chance() {
    ///         state.apply_chance(&mut rng);
    ///     } else {
    ///         state.try_action(random_action(&state, &mut rng).unwrap()).unwrap();
    ///     }
    /// }
    /// let seat = state.to_play();
    /// let ChanceOutcome::Gift(gift) = state.apply_chance(&mut rng) else { unreachable!() };
    /// assert_eq!(state.hand_size(seat), 1);
    /// assert_eq!(state.view(seat).own_hand().count(gift), 1);
    /// ```
    pub fn apply_chance<R: Rng + ?Sized>(&mut self, rng: &mut R) -> ChanceOutcome {
        match self.phase {
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawHand => {
                let (tile, drawn) = self.draw_random(rng);
                ChanceOutcome::Tile(tile, drawn)
            }
            Phase::DrawGift => ChanceOutcome::Gift(self.receive_random_gift(rng)),
            other => panic!("apply_chance in {other:?}"),
        }
    }

    /// In [`Phase::DrawGift`]: the seat receives a card drawn at random
    /// from the deck (each card equally likely), as [`State::receive_gift`].
    ///
    /// # Panics
    /// Outside [`Phase::DrawGift`].
    pub(crate) fn receive_random_gift<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Gift {
        let deck = self.gifts.deck;
        let gift = deck.nth(crate::sampling::below(rng, deck.total()));
        self.receive_gift(gift)
            .expect("a gift draw is due and the card is in the deck");
        gift
    }

    /// The phase is a chance event.
    ///
    /// # Examples
    /// ```
    /// use engine::{Chance, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// assert!(state.is_chance());
    /// state.apply_chance_outcome(Chance::Tile(Tile::U)).unwrap();
    /// assert!(!state.is_chance());
    /// ```
    #[inline]
    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift | Phase::DrawHand
        )
    }

    /// Draw a tile at random (each tile left equally likely), as
    /// [`State::draw`]. Returns the tile and what happened to it. With a
    /// hand, a tile of the hand that must be set aside is set aside first
    /// (without using `rng`).
    ///
    /// # Panics
    /// Outside [`Phase::Draw`] and [`Phase::DrawSecond`].
    pub(crate) fn draw_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> (Tile, Drawn) {
        // The turn's draw of the base game first, without the checks of
        // `draw` (the tile is in the bag; no start tile, hand or Take 2).
        if self.phase == Phase::Draw && self.rules.hand() == 0 && !self.board.is_empty() {
            let tile = self.bag.nth(crate::sampling::below(rng, self.bag.total()));
            let taken = self.bag.take(tile);
            debug_assert!(taken);
            return (tile, self.drawn_from_bag(tile, None));
        }
        if let Some(tile) = self.certain_set_aside() {
            let drawn = self.draw(tile).expect("a tile of the hand to set aside");
            return (tile, drawn);
        }
        let k = crate::sampling::below(rng, self.bag.total());
        let tile = self.bag.nth(k);
        let drawn = self.draw(tile).expect("drawing during the draw phase");
        (tile, drawn)
    }
}
