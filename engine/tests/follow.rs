//! A seat that follows a game from its turn records — other seats'
//! received gift cards and, with hidden hands, the tiles they draw into
//! their hands hidden — sees exactly the real game: at every one of its
//! decisions, its copy (the deal through `follow_deal`, completed turns
//! through `follow_turn`, the turn in progress through
//! `follow_turn_start`) gives the same view, legal actions and
//! determinizations as the real position.

use engine::{
    follow_deal, follow_turn, follow_turn_start, random_action, Hidden, RecordBuilder, Rules, Seat,
    State, Tile, TurnRecord,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Whether `viewer` sees the tiles `seat` draws into its hand.
fn sees_hand(rules: Rules, viewer: Seat, seat: u8) -> bool {
    seat == viewer.0 || rules.hand_visible
}

/// The turn as `viewer` is told it, and what it is not told.
fn masked(turn: &TurnRecord, viewer: Seat, rules: Rules) -> (TurnRecord, Hidden) {
    let mut turn = turn.clone();
    let gift = turn.player != viewer.0 && turn.gift_received.take().is_some();
    let draws = match sees_hand(rules, viewer, turn.player) {
        true => 0,
        false => std::mem::take(&mut turn.drawn).len(),
    };
    (turn, Hidden { gift, draws })
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

/// Play a random game; at every decision compare the deciding seat's copy
/// with the real position. Returns the number of decisions checked.
fn check_game(seed: u64, players: usize, rules: Rules) -> usize {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(rules, players, Seat(0));
    let mut builder = RecordBuilder::new(players, rules);
    let mut copies: Vec<Option<State>> = vec![None; players];
    let mut followed = vec![0usize; players];
    let mut checked = 0;
    while !state.is_over() {
        if state.is_chance() {
            let outcome = state.apply_chance(&mut rng);
            builder.chance(&state, outcome);
            continue;
        }
        let seat = state.to_play();
        let copy = copies[seat.index()].get_or_insert_with(|| {
            let mut copy = State::new(rules, players, Seat(0));
            let deal = masked_deal(builder.deal(), seat, rules);
            follow_deal(&mut copy, seat, &deal).unwrap();
            copy
        });
        for turn in &builder.turns()[followed[seat.index()]..] {
            let (turn, hidden) = masked(turn, seat, rules);
            follow_turn(copy, seat, &turn, hidden).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        }
        followed[seat.index()] = builder.turns().len();
        let mut position = copy.clone();
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
            let mut r = Pcg64Mcg::seed_from_u64(checked as u64);
            s.view(seat).determinize(&mut r)
        };
        assert!(
            sample(&position) == sample(&state),
            "seed {seed}: determinization"
        );
        checked += 1;
        let action = random_action(&state, &mut rng).unwrap();
        state.try_action(action).unwrap();
        builder.action(seat, &state, action);
    }
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
        decisions += check_game(seed, 2 + (seed as usize % 4), rules);
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
            decisions += check_game(seed + 100 * i as u64, 2 + (seed as usize % 5), rules);
        }
    }
    assert!(decisions > 1500, "{decisions}");
}
