//! Chance: drawing tiles from the bag (and gift cards), at random or as
//! given, and the chance outcomes with their probabilities.

use super::State;
use crate::gifts::Gift;
use crate::moves::IllegalMove;
use crate::tiles::Tile;
use crate::turn::{ChanceOutcome, Drawn, Phase};
use rand::Rng;

impl State {
    /// The chance outcomes of a draw: each kind left with its probability.
    pub fn chance_outcomes(&self) -> impl Iterator<Item = (Tile, f64)> + '_ {
        let total = self.bag.total() as f64;
        self.bag.iter().map(move |(t, c)| (t, c as f64 / total))
    }

    /// `tile` has a legal placement on the current board.
    #[inline]
    pub fn is_placeable(&self, tile: Tile) -> bool {
        self.board.has_fit(tile)
    }

    /// Draw `tile` from the bag for the seat to play. An unplaceable tile
    /// is set aside (and the game ends if the bag is then empty).
    ///
    /// After Take 2 ([`Phase::DrawSecond`]) this draws the second tile: a
    /// placeable one leads to [`Phase::Choose`]; when the bag runs out
    /// first, the seat places the tile it holds.
    pub fn draw(&mut self, tile: Tile) -> Result<Drawn, IllegalMove> {
        let first = match self.phase {
            Phase::Draw => None,
            Phase::DrawSecond(first) => Some(first),
            Phase::Over => return Err(IllegalMove::GameOver),
            _ => return Err(IllegalMove::TileAlreadyDrawn),
        };
        if !self.bag.take(tile) {
            return Err(IllegalMove::NotInBag(tile));
        }
        let placements = self.board.fit_count(tile);
        if placements > 0 {
            self.phase = match first {
                None => {
                    self.placements = placements as u16;
                    Phase::Place(tile)
                }
                Some(first) => Phase::Choose(first, tile),
            };
            Ok(Drawn::Placeable)
        } else {
            if self.bag.is_empty() {
                match first {
                    None => self.finish(),
                    Some(first) => self.phase = Phase::Place(first),
                }
            }
            Ok(Drawn::SetAside)
        }
    }

    /// Resolve whatever chance event is due (a tile or a gift card) with
    /// `rng`, every outcome weighted by its count.
    ///
    /// # Panics
    /// If the phase is not a chance phase.
    pub fn apply_chance<R: Rng + ?Sized>(&mut self, rng: &mut R) -> ChanceOutcome {
        match self.phase {
            Phase::Draw | Phase::DrawSecond(_) => {
                let (tile, drawn) = self.draw_random(rng);
                ChanceOutcome::Tile(tile, drawn)
            }
            Phase::DrawGift => ChanceOutcome::Gift(self.receive_random_gift(rng)),
            other => panic!("apply_chance in {other:?}"),
        }
    }

    /// In [`Phase::DrawGift`]: the seat receives a card drawn at random
    /// from the deck (each card equally likely), as [`State::receive_gift`].
    pub fn receive_random_gift<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Gift {
        let deck = self.gifts.deck;
        let gift = deck.nth(rng.gen_range(0..deck.total()));
        self.receive_gift(gift)
            .expect("a gift draw is due and the card is in the deck");
        gift
    }

    /// The phase is a chance event.
    #[inline]
    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawGift
        )
    }

    /// Draw a tile at random (each tile left equally likely), as
    /// [`State::draw`]. Returns the tile and what happened to it.
    pub fn draw_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> (Tile, Drawn) {
        let k = rng.gen_range(0..self.bag.total());
        let tile = self.bag.nth(k);
        let drawn = self.draw(tile).expect("drawing during the draw phase");
        (tile, drawn)
    }
}
