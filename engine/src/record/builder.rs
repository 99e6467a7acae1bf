//! The record builder: writes a [`Record`] while a game is played.

use super::{FinalRecord, GiftOpenRecord, Record, TurnRecord};
use crate::rules::Rules;
use crate::seat::Seat;
use crate::state::State;
use crate::tiles::Tile;
use crate::turn::{Action, ChanceOutcome, Drawn, Phase};

/// Builds a [`Record`] while a game is played: give it every chance
/// outcome and every action, each with the state right after it.
///
/// # Examples
/// ```
/// use engine::{random_action, replay, RecordBuilder, Rules, Seat, State};
/// use rand::SeedableRng;
///
/// let rules = Rules::default();
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
/// let mut state = State::new(rules, 2, Seat(0));
/// let mut builder = RecordBuilder::new(2, rules);
/// while !state.is_over() {
///     if state.is_chance() {
///         let outcome = state.apply_chance(&mut rng);
///         builder.chance(&state, outcome);
///     } else {
///         let (seat, action) = (state.to_play(), random_action(&state, &mut rng).unwrap());
///         state.try_action(action).unwrap();
///         builder.action(seat, &state, action);
///     }
/// }
/// let record = builder.finish(&state);
/// assert_eq!(replay(&record, false).unwrap(), state);
/// ```
#[derive(Clone, Debug)]
pub struct RecordBuilder {
    record: Record,
    turn: Option<TurnRecord>,
    first: Option<Tile>,
    /// With a hand: the seat to play and the phase before the step being
    /// recorded (`None` before the first step: the deal).
    before: Option<(Seat, Phase)>,
    /// With a hand: tiles dealt so far at set-up.
    dealt: usize,
}

impl RecordBuilder {
    /// A builder for a new game.
    ///
    /// # Examples
    /// ```
    /// use engine::{RecordBuilder, Rules, Seat, State};
    ///
    /// let state = State::new(Rules::default(), 3, Seat(0));
    /// let record = RecordBuilder::new(3, Rules::default()).finish(&state);
    /// assert_eq!((record.players, record.turns.len()), (3, 0));
    /// assert!(record.final_scores.is_none()); // the game is not over
    /// ```
    pub fn new(players: usize, rules: Rules) -> RecordBuilder {
        RecordBuilder {
            record: Record::new(players, rules),
            turn: None,
            first: None,
            before: None,
            dealt: 0,
        }
    }

    /// The record's header fields (seed, agents) can be set here.
    ///
    /// # Examples
    /// ```
    /// use engine::{RecordBuilder, Rules, Seat, State};
    ///
    /// let mut builder = RecordBuilder::new(2, Rules::default());
    /// builder.record_mut().seed = Some(42);
    /// builder.record_mut().agents = vec!["greedy".into(), "random".into()];
    /// let record = builder.finish(&State::new(Rules::default(), 2, Seat(0)));
    /// assert_eq!(record.seed, Some(42));
    /// ```
    pub fn record_mut(&mut self) -> &mut Record {
        &mut self.record
    }

    /// Close the turn in progress, as [`RecordBuilder::finish`] does (for
    /// a game stopped mid-turn).
    pub fn close_turn(&mut self) {
        self.close();
    }

    /// The turns completed so far.
    pub fn turns(&self) -> &[TurnRecord] {
        &self.record.turns
    }

    /// The rules of the game.
    ///
    /// # Examples
    /// ```
    /// use engine::{RecordBuilder, Rules};
    ///
    /// let rules: Rules = "hand=2,hand_visible=true".parse().unwrap();
    /// assert!(RecordBuilder::new(2, rules).rules().hand_visible);
    /// ```
    pub fn rules(&self) -> Rules {
        self.record.rules
    }

    /// With a hand (RULES.md §8): the tiles each seat drew at set-up so
    /// far, in seat order.
    ///
    /// # Examples
    /// ```
    /// use engine::{RecordBuilder, Rules, Seat, State, Tile};
    ///
    /// let rules: Rules = "hand=1".parse().unwrap();
    /// let mut state = State::new(rules, 2, Seat(0));
    /// let mut builder = RecordBuilder::new(2, rules);
    /// for tile in [Tile::U, Tile::V] {
    ///     let drawn = state.apply_chance_outcome(engine::Chance::Tile(tile)).unwrap();
    ///     builder.chance(&state, drawn);
    /// }
    /// assert_eq!(builder.deal(), [vec![Tile::U], vec![Tile::V]]);
    /// ```
    pub fn deal(&self) -> &[Vec<Tile>] {
        &self.record.deal
    }

    /// With `start_in_bag` (RULES.md §8): the start tile drawn from the
    /// bag, once drawn.
    pub fn start(&self) -> Option<Tile> {
        self.record.start
    }

    /// The turn in progress, if it has begun: the tiles set aside, the
    /// first placeable tile drawn (as `tile`, with no cell yet) and a gift
    /// opened.
    pub fn current_turn(&self) -> Option<TurnRecord> {
        let mut turn = self.turn.clone()?;
        if turn.tile.is_none() {
            turn.tile = self.first;
        }
        Some(turn)
    }

    fn current(&mut self, seat: Seat) -> &mut TurnRecord {
        self.turn.get_or_insert_with(|| TurnRecord {
            player: seat.0,
            ..TurnRecord::default()
        })
    }

    fn close(&mut self) {
        if let Some(t) = self.turn.take() {
            self.record.turns.push(t);
        }
        self.first = None;
    }

    /// The turn of `seat` a turn-start step belongs to: the open one, or a
    /// new one when the open one is another seat's or already placed.
    fn turn_start(&mut self, seat: Seat) -> &mut TurnRecord {
        if matches!(&self.turn, Some(t) if t.player != seat.0 || t.tile.is_some()) {
            self.close();
        }
        self.current(seat)
    }

    /// With a hand: close the open turn once it is over (its tile placed
    /// and no draw back up due, or its seat no longer to play), so that
    /// [`RecordBuilder::current_turn`] is only ever a turn in progress.
    fn close_finished_hand_turn(&mut self, after: &State) {
        let finished = self.turn.as_ref().is_some_and(|t| {
            after.is_over()
                || t.player != after.to_play().0
                || (t.tile.is_some() && after.phase() != Phase::DrawHand)
        });
        if finished {
            self.close();
        }
    }

    /// A chance outcome with a hand (RULES.md §8): the start tile
    /// (`start_in_bag`), a tile dealt, drawn back up, drawn at the start of
    /// a turn, or set aside (or returned).
    fn hand_chance(&mut self, tile: Tile, drawn: Drawn) {
        let (seat, phase) = self.before.unwrap_or((Seat(0), Phase::DrawHand));
        let dealing =
            phase == Phase::DrawHand && self.record.turns.is_empty() && self.turn.is_none();
        match (phase, drawn) {
            (_, Drawn::Start) => self.record.start = Some(tile),
            (Phase::DrawHand, _) if dealing => {
                let seat = self.dealt / self.record.rules.hand as usize;
                self.record.deal.resize(self.record.players, Vec::new());
                self.record.deal[seat].push(tile);
                self.dealt += 1;
            }
            (Phase::DrawHand, _) => self.current(seat).drawn.push(tile),
            (_, Drawn::SetAside | Drawn::Returned) => self.turn_start(seat).discarded.push(tile),
            (_, _) => self.turn_start(seat).drawn.push(tile),
        }
    }

    /// A chance outcome, with the state after it.
    ///
    /// # Examples
    /// ```
    /// use engine::{RecordBuilder, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// let mut builder = RecordBuilder::new(2, Rules::default());
    /// let drawn = state.apply_chance_outcome(engine::Chance::Tile(Tile::U)).unwrap();
    /// builder.chance(&state, drawn);
    /// let action = state.parse_action("U (1, 0) r1").unwrap();
    /// state.try_action(action).unwrap();
    /// builder.action(Seat(0), &state, action);
    /// let record = builder.finish(&state);
    /// assert_eq!(record.turns[0].tile, Some(Tile::U));
    /// ```
    pub fn chance(&mut self, after: &State, outcome: ChanceOutcome) {
        if self.record.rules.hand > 0 {
            if let ChanceOutcome::Tile(tile, drawn) = outcome {
                self.hand_chance(tile, drawn);
            }
            self.before = Some((after.to_play(), after.phase()));
            self.close_finished_hand_turn(after);
            return;
        }
        let seat = after.to_play();
        match outcome {
            ChanceOutcome::Tile(tile, Drawn::Start) => self.record.start = Some(tile),
            ChanceOutcome::Tile(tile, drawn) => {
                let turn = self.current(seat);
                match (&mut turn.gift_open, drawn) {
                    (_, Drawn::Start) => unreachable!("matched above"),
                    (Some(g), Drawn::SetAside | Drawn::Returned) => g.discarded.push(tile),
                    (Some(g), Drawn::Placeable) => g.second = Some(tile),
                    (None, Drawn::SetAside | Drawn::Returned) => turn.discarded.push(tile),
                    (None, Drawn::Placeable) => self.first = Some(tile),
                    (_, Drawn::Held) => unreachable!("a tile held without a hand"),
                }
                if after.is_over() {
                    self.close();
                }
            }
            ChanceOutcome::Gift(gift) => {
                self.current(seat).gift_received = Some(gift);
                self.close();
            }
        }
    }

    /// An action of `seat`, with the state after it.
    ///
    /// # Panics
    /// If `after` is not the state right after `action` (the placed tile is
    /// not on its board, or a Take 2 choice came without its draws).
    ///
    /// # Examples
    /// ```
    /// use engine::{Location, RecordBuilder, Rules, Seat, Side, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// let mut builder = RecordBuilder::new(2, Rules::default());
    /// let outcome = state.apply_chance_outcome(engine::Chance::Tile(Tile::U)).unwrap();
    /// builder.chance(&state, outcome);
    /// let action = state.parse_action("U (1, 0) r1 E").unwrap();
    /// state.try_action(action).unwrap();
    /// builder.action(Seat(0), &state, action);
    /// let turn = &builder.finish(&state).turns[0];
    /// assert_eq!((turn.x, turn.y, turn.rot), (Some(1), Some(0), Some(1)));
    /// assert_eq!(turn.meeple, Some(Location::Edge(Side::E)));
    /// ```
    pub fn action(&mut self, seat: Seat, after: &State, action: Action) {
        let first = self.first;
        let hand = self.record.rules.hand > 0;
        if hand {
            self.before = Some((after.to_play(), after.phase()));
        }
        let turn = if hand {
            self.turn_start(seat)
        } else {
            self.current(seat)
        };
        match action {
            Action::Place(mv) => {
                let placed = after
                    .board()
                    .at(mv.placement.pos)
                    .expect("the tile was placed");
                let t = TurnRecord::new(seat, Vec::new(), placed.tile, mv);
                (turn.tile, turn.x, turn.y, turn.rot, turn.meeple) =
                    (t.tile, t.x, t.y, t.rot, t.meeple);
                if hand {
                    // Unless draws back up follow.
                    self.close_finished_hand_turn(after);
                } else if after.phase() != Phase::DrawGift {
                    self.close();
                }
            }
            Action::Open(open) => {
                let g = GiftOpenRecord::of(open, after.board()).expect("a legal opening");
                turn.gift_open = Some(g);
            }
            Action::Keep(kept) => {
                if let Some(g) = &mut turn.gift_open {
                    let second = g.second.expect("a second tile before the choice");
                    let first = first.expect("a first tile before the choice");
                    g.returned = Some(if kept == second { first } else { second });
                }
            }
        }
    }

    /// The finished record, with the final scores when the game is over.
    ///
    /// # Examples
    /// ```
    /// use engine::{random_action, RecordBuilder, Rules, Seat, State};
    /// use rand::SeedableRng;
    ///
    /// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(4);
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// let mut builder = RecordBuilder::new(2, Rules::default());
    /// while !state.is_over() {
    ///     if state.is_chance() {
    ///         let outcome = state.apply_chance(&mut rng);
    ///         builder.chance(&state, outcome);
    ///     } else {
    ///         let (seat, action) = (state.to_play(), random_action(&state, &mut rng).unwrap());
    ///         state.try_action(action).unwrap();
    ///         builder.action(seat, &state, action);
    ///     }
    /// }
    /// let record = builder.finish(&state);
    /// let totals = record.final_scores.unwrap().scores;
    /// assert_eq!(totals, [state.score(Seat(0)).total(), state.score(Seat(1)).total()]);
    /// ```
    pub fn finish(mut self, state: &State) -> Record {
        self.close();
        if state.is_over() {
            self.record.final_scores = Some(FinalRecord {
                scores: (0..state.players())
                    .map(|s| state.score(Seat(s as u8)).total())
                    .collect(),
            });
        }
        self.record
    }
}
