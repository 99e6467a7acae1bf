//! A seat that follows a game from its turn records — other seats'
//! received gift cards and, with hidden hands, the tiles they draw into
//! their hands hidden — sees exactly the real game: after every completed
//! turn its copy (the deal through `follow_deal`, completed turns through
//! `follow_turn`) agrees with the game on everything the seat sees, and at
//! every one of its decisions (the turn in progress through
//! `follow_turn_start`) gives the same view, legal actions and
//! determinizations as the real position. One thing a turn record does
//! not tell, with `unplaceable: return` and hidden hands, is how many of
//! the tiles set aside came from the hand (see `split_unknown`); told the
//! hand's size after the turn (`Hidden::held`) the copy is exact again.

use engine::{
    follow_deal, follow_turn, follow_turn_start, random_action, Bag, Hidden, Meeple, Phase, Placed,
    RecordBuilder, Rules, Score, Seat, State, Tile, TurnRecord, Unplaceable,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Whether `viewer` sees the tiles `seat` draws into its hand.
fn sees_hand(rules: Rules, viewer: Seat, seat: u8) -> bool {
    seat == viewer.0 || rules.hand_visible
}

/// The turn as `viewer` is told it, and what it is not told; `held`: the
/// size of the seat's hand after the turn, when the viewer is told it.
fn masked(
    turn: &TurnRecord,
    viewer: Seat,
    rules: Rules,
    held: Option<usize>,
) -> (TurnRecord, Hidden) {
    let mut turn = turn.clone();
    let gift = turn.player != viewer.0 && turn.gift_received.take().is_some();
    let (draws, held) = match sees_hand(rules, viewer, turn.player) {
        true => (0, None),
        false => (std::mem::take(&mut turn.drawn).len(), held),
    };
    (turn, Hidden { gift, draws, held })
}

/// The set-up deal as `viewer` is told it.
fn masked_deal(deal: &[Vec<Tile>], viewer: Seat, rules: Rules) -> Vec<Vec<Option<Tile>>> {
    let seen = |s: usize, t: Tile| sees_hand(rules, viewer, s as u8).then_some(t);
    deal.iter()
        .enumerate()
        .map(|(s, tiles)| tiles.iter().map(|&t| seen(s, t)).collect())
        .collect()
}

fn actions(state: &State, seat: Seat) -> Vec<engine::Action> {
    let mut out = Vec::new();
    state.view(seat).for_each_action(|a| out.push(a));
    out
}

/// What a seat's view shows, compared between its copy and the game.
fn view_facts(state: &State, seat: Seat) -> (Vec<Tile>, Vec<usize>, engine::Bag, u8) {
    let view = state.view(seat);
    let held = (0..view.players())
        .map(|s| view.tiles_held(Seat(s as u8)))
        .collect();
    let own = view.own_tiles().iter().collect();
    (own, held, view.unseen_tiles(), view.bag().total())
}

/// Everything `seat` may see in `state` that a completed turn settles:
/// board, meeples, scores, supplies, whether the game is over, the seat's
/// own hand, every hand's size, the tiles it has not seen and the bag
/// count.
#[derive(Clone, Debug, PartialEq)]
struct Facts {
    board: Vec<Placed>,
    meeples: Vec<Meeple>,
    scores: Vec<Score>,
    supplies: Vec<u8>,
    over: bool,
    own: Vec<Tile>,
    held: Vec<usize>,
    unseen: Bag,
    bag: u8,
}

fn facts(state: &State, seat: Seat) -> Facts {
    let seats = || (0..state.players()).map(|s| Seat(s as u8));
    let (own, held, unseen, bag) = view_facts(state, seat);
    Facts {
        board: state.board().tiles().to_vec(),
        meeples: state.meeples().to_vec(),
        scores: seats().map(|s| state.score(s)).collect(),
        supplies: seats().map(|s| state.supply(s)).collect(),
        over: state.is_over(),
        own,
        held,
        unseen,
        bag,
    }
}

/// The one way a follower's copy may part from the game: with
/// `unplaceable: return` and hidden hands a turn record does not tell how
/// many of the tiles set aside came from the hand and how many were drawn
/// and put back, and two splits can both replay (the copy's is checked by
/// the replay) yet leave the seat holding different numbers of tiles. Then
/// the copy differs from the game only there: in that seat's hand size and
/// in the bag count, by the same number of tiles. (Told the hand's size
/// after the turn, `Hidden::held`, the follower keeps the right split.)
fn split_unknown(
    rules: Rules,
    turn: &TurnRecord,
    viewer: Seat,
    copy: &Facts,
    real: &Facts,
) -> bool {
    let p = turn.player as usize;
    let hidden = rules.unplaceable == Unplaceable::Return && !rules.hand_visible;
    let same_rest = Facts {
        held: real.held.clone(),
        bag: real.bag,
        ..copy.clone()
    } == *real;
    let others_same = (0..real.held.len()).all(|s| s == p || copy.held[s] == real.held[s]);
    let moved = copy.held[p] + copy.bag as usize == real.held[p] + real.bag as usize;
    hidden
        && turn.player != viewer.0
        && !turn.discarded.is_empty()
        && same_rest
        && others_same
        && moved
}

/// What one game showed.
#[derive(Default)]
struct Checked {
    /// Decisions compared with the deciding seat's copy.
    decisions: usize,
    /// Completed turns followed by every seat's copy.
    turns: usize,
    /// Placements from a hand left short while the bag still held tiles,
    /// all unplaceable (with `unplaceable: return`, a bag that counts as
    /// empty).
    short_refills: usize,
    /// The game was followed only up to a turn whose split of the tiles
    /// set aside between hand and bag it does not tell (`split_unknown`).
    split_unknown: bool,
}

/// Play a random game. Every seat's copy follows each turn as soon as it
/// is completed and must agree with the game on everything the seat sees;
/// at every decision the deciding seat's copy, with the turn in progress,
/// gives the same phase, view, actions and determinization. `tell_held`:
/// the copies are told each hidden hand's size after its seat's turn (as
/// `serve` takes it from `tile_hands`).
fn check_game(seed: u64, players: usize, rules: Rules, tell_held: bool) -> Checked {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut builder = RecordBuilder::new(players, rules);
    let mut copies: Vec<State> = Vec::new();
    let mut checked = Checked::default();
    let hand = rules.hand as usize;
    loop {
        let dealt = builder.deal().len() == players * usize::from(hand > 0)
            && builder.deal().iter().all(|tiles| tiles.len() == hand);
        if copies.is_empty() && dealt {
            copies = (0..players)
                .map(|s| {
                    let seat = Seat(s as u8);
                    let mut copy = State::new(rules, players, Seat(0));
                    let deal = masked_deal(builder.deal(), seat, rules);
                    follow_deal(&mut copy, seat, &deal).unwrap();
                    copy
                })
                .collect();
        }
        // A completed turn: every seat follows it and sees the game.
        if let Some(turn) = builder
            .turns()
            .get(checked.turns)
            .filter(|_| !copies.is_empty())
        {
            let t = checked.turns;
            for (s, copy) in copies.iter_mut().enumerate() {
                let seat = Seat(s as u8);
                let held = tell_held.then(|| state.tiles_held(Seat(turn.player)));
                let (seen, hidden) = masked(turn, seat, rules, held);
                follow_turn(copy, seat, &seen, hidden)
                    .unwrap_or_else(|e| panic!("seed {seed}, seat {s}, turn {t}: {e:?}"));
                let (copy, real) = (facts(copy, seat), facts(&state, seat));
                if copy != real && split_unknown(rules, turn, seat, &copy, &real) {
                    checked.split_unknown = true;
                    return checked;
                }
                assert_eq!(copy, real, "seed {seed}, seat {s}, after turn {t}");
            }
            checked.turns += 1;
            continue;
        }
        if state.is_over() {
            break;
        }
        if state.is_chance() {
            let outcome = state.apply_chance(&mut rng);
            builder.chance(&state, outcome);
            continue;
        }
        let seat = state.to_play();
        let mut position = copies[seat.index()].clone();
        if let Some(current) = builder.current_turn() {
            assert_eq!(current.player, seat.0, "seed {seed}: a turn in progress");
            follow_turn_start(&mut position, seat, &current).unwrap();
        }
        assert_eq!(position.phase(), state.phase(), "seed {seed}");
        assert_eq!(
            view_facts(&position, seat),
            view_facts(&state, seat),
            "seed {seed}"
        );
        assert_eq!(
            actions(&position, seat),
            actions(&state, seat),
            "seed {seed}"
        );
        let sample = |s: &State| {
            let mut r = Pcg64Mcg::seed_from_u64(checked.decisions as u64);
            s.view(seat).determinize(&mut r)
        };
        assert!(
            sample(&position) == sample(&state),
            "seed {seed}: determinization"
        );
        checked.decisions += 1;
        let bag = state.bag();
        if state.phase() == Phase::PlaceHand && state.tiles_held(seat) < hand && !bag.is_empty() {
            assert!(
                bag.iter().all(|(t, _)| !state.is_placeable(t)),
                "seed {seed}"
            );
            checked.short_refills += 1;
        }
        let action = random_action(&state, &mut rng).unwrap();
        state.try_action(action).unwrap();
        builder.action(seat, &state, action);
    }
    assert_eq!(checked.turns, builder.turns().len(), "seed {seed}");
    checked
}

#[test]
fn a_seat_following_turn_records_sees_the_real_game() {
    let rules = Rules {
        farmers: true,
        gifts: true,
        ..Rules::STANDARD
    };
    let mut decisions = 0;
    for seed in 0..12 {
        let checked = check_game(seed, 2 + (seed as usize % 4), rules, false);
        assert!(!checked.split_unknown);
        decisions += checked.decisions;
    }
    assert!(decisions > 800, "{decisions}");
}

#[test]
fn a_seat_following_a_game_with_hands_sees_the_real_game() {
    let mut decisions = 0;
    for (i, rules) in [
        "hand=1",
        "hand=2",
        "hand=3",
        "hand=3,hand_visible=true",
        "hand=2,hole_bonus=true",
    ]
    .iter()
    .enumerate()
    {
        let rules: Rules = rules.parse().unwrap();
        for seed in 0..6 {
            let checked = check_game(seed + 100 * i as u64, 2 + (seed as usize % 5), rules, false);
            assert!(!checked.split_unknown);
            decisions += checked.decisions;
        }
    }
    assert!(decisions > 1500, "{decisions}");
}

#[test]
fn a_follower_draws_nothing_from_a_bag_of_unplaceable_tiles() {
    // With `unplaceable: return` a bag holding only unplaceable tiles
    // counts as empty: a hand left short draws nothing from it, before or
    // after placing. Small tables fill up, so that happens while hands
    // still hold tiles that fit.
    let (mut games, mut exact, mut short_refills, mut turns) = (0, 0, 0, 0);
    for (i, rules) in [
        "hand=2,unplaceable=return,table=5x5",
        "hand=3,unplaceable=return,table=5x5",
        "hand=2,unplaceable=return,table=3x3,table_closes=true",
        "hand=3,unplaceable=return,table=3x3,table_closes=true",
        "hand=2,unplaceable=return,table=7x3",
        "hand=3,unplaceable=return,table=5x5,table_closes=true",
    ]
    .iter()
    .enumerate()
    {
        let rules: Rules = rules.parse().unwrap();
        for seed in 0..10 {
            let (seed, players) = (seed + 100 * i as u64, 2 + (seed as usize % 2));
            let checked = check_game(seed, players, rules, false);
            games += 1;
            exact += usize::from(!checked.split_unknown);
            short_refills += checked.short_refills;
            turns += checked.turns;
            // Told each hand's size after its turn, every copy sees the
            // game exactly to its end.
            let told = check_game(seed, players, rules, true);
            assert!(!told.split_unknown, "seed {seed}");
        }
    }
    assert!(
        short_refills > 10,
        "{short_refills} hands left short by such a bag"
    );
    assert!(turns > 1000, "{turns}");
    // Most games are followed exactly to their end.
    assert!(4 * exact > 3 * games, "{exact} of {games} games");
}
