//! Sampling what a seat cannot see: [`SeatView::determinize`] deals the
//! hidden gift cards (and, with hidden hands, the unseen tiles) at random
//! into a full [`State`] consistent with the view.

use super::SeatView;
use crate::bag::Bag;
use crate::gifts::{Gift, GiftCards};
use crate::hand::Hand;
use crate::seat::Seat;
use crate::state::State;
use crate::tiles::Tile;
use rand::Rng;

impl SeatView<'_> {
    /// A complete state consistent with everything this seat knows, for
    /// search. The future tile order is chance in every state (the bag is
    /// counts). With The Gifts, the cards this seat has not seen — other
    /// seats' hands and the deck — are dealt at random from the unseen
    /// cards: the deck from those that can be in it (the deck is part of
    /// the pile it was last formed from, which lay face up), the rest to
    /// the other seats, each receiving as many as it holds. The sample
    /// depends only on `rng` and on what the seat may see.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 3, Seat(0));
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    /// let sample = state.view(Seat(1)).determinize(&mut rng);
    /// assert_eq!(sample.board().len(), state.board().len()); // public facts kept
    /// ```
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let mut state = self.state.clone();
        self.deal_hidden(&mut state, rng);
        state
    }

    /// [`SeatView::determinize`] into `state` (its content replaced), with
    /// the same sample for the same `rng`: a search that samples every
    /// iteration copies the position once, into a state it keeps.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let state = State::new(Rules { farmers: true, gifts: true, ..Rules::STANDARD }, 3, Seat(0));
    /// let view = state.view(Seat(1));
    /// let mut sample = State::new(Rules::default(), 2, Seat(0));
    /// view.determinize_into(&mut rand_pcg::Pcg64Mcg::seed_from_u64(3), &mut sample);
    /// assert!(sample == view.determinize(&mut rand_pcg::Pcg64Mcg::seed_from_u64(3)));
    /// ```
    pub fn determinize_into<R: Rng + ?Sized>(&self, rng: &mut R, state: &mut State) {
        state.clone_from(self.state);
        self.deal_hidden(state, rng);
    }

    /// Deal what this seat cannot see in `state`, a copy of the position
    /// (see [`SeatView::determinize`]).
    fn deal_hidden<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) {
        let rules = self.state.rules();
        if rules.hand > 0 && !rules.hand_visible {
            self.deal_hidden_tiles(state, rng);
        }
        if !rules.gifts {
            return;
        }
        let unseen = GiftCards::FULL
            .minus(&self.own_hand())
            .minus(&self.state.gift_discard());
        // The deck first, from the unseen cards of the pile it was formed
        // from; then the other hands from everything else unseen.
        let may_be_deck = unseen.common(&self.state.gift_deck_pool());
        let mut deck = GiftCards::EMPTY;
        let mut candidates = shuffled(&may_be_deck, rng);
        for &g in &candidates.cards[..self.state.gift_deck_size() as usize] {
            deck.add(g);
        }
        candidates = shuffled(&unseen.minus(&deck), rng);
        let cards = &candidates.cards;
        let mut hands = [GiftCards::EMPTY; crate::MAX_PLAYERS];
        let mut next = 0;
        for (s, hand) in hands.iter_mut().enumerate().take(self.players()) {
            let seat = Seat(s as u8);
            if seat == self.seat {
                *hand = self.own_hand();
                continue;
            }
            for _ in 0..self.state.hand_size(seat) {
                hand.add(cards[next]);
                next += 1;
            }
        }
        debug_assert_eq!(next, candidates.len);
        state.set_hidden_cards(deck, &hands[..self.players()]);
    }
}

impl SeatView<'_> {
    /// With hidden hands: deal the tiles this seat has not seen (the bag
    /// and the other seats' hands, as counts) at random, each other seat
    /// receiving as many as it holds and the bag the rest.
    ///
    /// The tiles placed and set aside are public, so these are exactly the
    /// unseen tiles. (A seat's kept tiles could all be placed at the start
    /// of its last turn, a hint this sample does not use.)
    fn deal_hidden_tiles<R: Rng + ?Sized>(&self, state: &mut State, rng: &mut R) {
        // The unseen tiles as counts, then laid out by kind: the sample
        // depends on what is unseen, not on where it lies.
        let counts = self.unseen_tiles();
        let players = self.players();
        let others = (0..players)
            .map(|s| Seat(s as u8))
            .filter(|&s| s != self.seat);
        let mut unseen = [Tile::A; 71];
        let mut len = 0;
        for (t, c) in counts.iter() {
            for _ in 0..c {
                unseen[len] = t;
                len += 1;
            }
        }
        let unseen = &mut unseen[..len];
        for i in (1..unseen.len()).rev() {
            unseen.swap(i, rng.gen_range(0..=i));
        }
        let mut hands = [Hand::EMPTY; crate::MAX_PLAYERS];
        hands[self.seat.index()] = self.own_tiles();
        let mut next = 0;
        for s in others {
            for _ in 0..self.state.tiles_held(s) {
                hands[s.index()].insert(unseen[next]);
                next += 1;
            }
        }
        let mut bag = Bag::empty();
        for &t in &unseen[next..] {
            bag.put_back(t);
        }
        state.set_bag_and_hands(bag, &hands[..players]);
    }
}

/// At most 25 gift cards in a random order.
struct Shuffled {
    cards: [Gift; 25],
    len: usize,
}

/// The cards of `of` in a uniformly random order.
fn shuffled<R: Rng + ?Sized>(of: &GiftCards, rng: &mut R) -> Shuffled {
    let mut out = Shuffled {
        cards: [Gift::Synod; 25],
        len: 0,
    };
    for g in Gift::ALL {
        for _ in 0..of.count(g) {
            out.cards[out.len] = g;
            out.len += 1;
        }
    }
    for i in (1..out.len).rev() {
        out.cards.swap(i, rng.gen_range(0..=i));
    }
    out
}
