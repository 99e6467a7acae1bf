//! Fuzz target: play a game driven by arbitrary bytes through the checked
//! engine API. Each step either takes a listed legal action (or chance
//! outcome) by index, or makes up an action or a draw from raw bytes. The
//! engine must never panic; a refused call must change nothing; an accepted
//! one must have been listed as legal or have the effect of a listed one;
//! and the invariants must hold after every step: meeples and gift cards
//! are conserved, scores never fall, no tile comes back, and every listed
//! action is accepted by `check_action`.

#![no_main]

use engine::{
    Action, Chance, GiftOpen, Move, Phase, Placement, Pos, Rotation, Rules, Seat, State, Tile,
};
use libfuzzer_sys::fuzz_target;

/// Reads bytes from the input, then zeros once it runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn made_up_action(b: &mut Bytes) -> Action {
    let pos = Pos::new((b.byte() as i8) % 8, (b.byte() as i8) % 8);
    let rot = Rotation::new(b.byte() % 4).expect("0-3");
    let seg = b.byte() % 10;
    let slot = b.byte() % 3;
    match b.byte() % 8 {
        0 => Action::Keep(Tile::from_index(b.byte() as usize % Tile::COUNT)),
        1 => Action::Open(GiftOpen::Synod { at: pos }),
        2 => Action::Open(GiftOpen::RoadSweeper {
            at: pos,
            segment: seg,
        }),
        3 => Action::Open(GiftOpen::CashOut {
            at: pos,
            segment: seg,
        }),
        4 => Action::Open(GiftOpen::ChangePosition {
            at: pos,
            from: seg,
            to: b.byte() % 10,
        }),
        5 => Action::Open(GiftOpen::Take2),
        _ => Action::Place(Move {
            placement: Placement { pos, rot, slot },
            meeple: (seg < 9).then_some(seg),
        }),
    }
}

/// Tiles in the bag or drawn and not yet placed: Take 2 puts one back in
/// the bag, but only one it drew.
fn unplayed(state: &State) -> u8 {
    let held = match state.phase() {
        Phase::Place(_) | Phase::DrawSecond(_) => 1,
        Phase::Choose(..) => 2,
        _ => 0,
    };
    let in_hands: usize = (0..state.players())
        .map(|s| state.tiles_held(Seat(s as u8)))
        .sum();
    state.bag().total() + held + in_hands as u8
}

fn check_invariants(state: &State, before: &State) {
    testkit::assert_conserved(state);
    for s in 0..state.players() {
        let seat = Seat(s as u8);
        assert!(
            state.score(seat).total() >= before.score(seat).total(),
            "a score fell"
        );
    }
    assert!(unplayed(state) <= unplayed(before), "tiles came back");
    state.for_each_action(|a| {
        assert_eq!(state.check_action(a), Ok(()), "listed action {a:?} refused");
    });
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let players = 2 + (b.byte() % 5) as usize;
    let flags = b.byte();
    // With a hand (RULES.md §8) of 1-3 tiles The Gifts are off.
    let hand = (flags >> 2) % 4;
    let rules = Rules {
        farmers: flags & 1 != 0,
        gifts: flags & 2 != 0 && hand == 0,
        hand,
        hand_visible: flags & 16 != 0,
        ..Rules::STANDARD
    };
    let mut state = State::new(rules, players, Seat(b.byte() % players as u8));
    let mut actions = Vec::new();
    while !state.is_over() && !b.is_empty() {
        let before = state.clone();
        let made_up = b.byte() % 4 == 0;
        match state.phase() {
            Phase::Draw | Phase::DrawSecond(_) | Phase::DrawHand => {
                let tile = if made_up {
                    Tile::from_index(b.byte() as usize % Tile::COUNT)
                } else {
                    // A listed outcome: from the bag, or the tile of a
                    // hand that must be set aside (the bag may be empty).
                    let outcomes = state.chance_outcomes();
                    assert!(!outcomes.is_empty(), "a draw due with no outcome");
                    match outcomes[b.byte() as usize % outcomes.len()].0 {
                        Chance::Tile(tile) => tile,
                        Chance::Gift(g) => panic!("a gift {g:?} listed for a tile draw"),
                    }
                };
                if state.apply_chance_outcome(Chance::Tile(tile)).is_err() {
                    assert_eq!(state, before, "a refused draw changed the state");
                }
            }
            Phase::DrawGift => {
                let deck = state.gift_deck();
                let gift = deck.nth(b.byte() % deck.total());
                state
                    .apply_chance_outcome(Chance::Gift(gift))
                    .expect("a card of the deck");
            }
            Phase::Place(_) | Phase::Choose(..) | Phase::PlaceHand => {
                actions.clear();
                state.for_each_action(|a| actions.push(a));
                assert!(!actions.is_empty(), "a decision without actions");
                let action = if made_up {
                    made_up_action(&mut b)
                } else {
                    actions[b.byte() as usize % actions.len()]
                };
                match state.try_action(action) {
                    // An unlisted action may be accepted only as another name
                    // of a listed one (Road Sweeper on any tile of the road).
                    Ok(()) if !actions.contains(&action) => {
                        let same = |&a: &Action| {
                            let mut s = before.clone();
                            s.try_action(a).is_ok() && testkit::same_position(&s, &state)
                        };
                        assert!(actions.iter().any(same), "unlisted {action:?} accepted");
                    }
                    Ok(()) => {}
                    Err(_) => {
                        assert!(!actions.contains(&action), "listed {action:?} refused");
                        assert_eq!(state, before, "a refused action changed the state");
                    }
                }
            }
            Phase::Over => unreachable!(),
        }
        check_invariants(&state, &before);
    }
});
