//! The Gifts (RULES.md §5): receiving, every card, the seed's notes, and
//! hidden hands. Positions are built from records (the recorded gift cards
//! make them deterministic); the effects of each card are also checked on
//! every opening in thousands of seeded random games.

use engine::random_action;
use engine::{
    replay, Action, FeatureKind, Gift, GiftOpen, GiftOpenRecord, Phase, Pos, Record, Rules, Seat,
    State, Tile, TurnRecord,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use testkit::placed;
use testkit::StateExt;

const GIFTS: Rules = Rules {
    farmers: true,
    gifts: true,
    ..Rules::STANDARD
};

fn received(mut t: TurnRecord, gift: Gift) -> TurnRecord {
    t.gift_received = Some(gift);
    t
}

fn opened(mut t: TurnRecord, open: GiftOpenRecord) -> TurnRecord {
    t.gift_open = Some(open);
    t
}

fn record(players: usize, turns: Vec<TurnRecord>) -> Record {
    let mut r = Record::new(players, GIFTS);
    r.turns = turns;
    r
}

fn run(players: usize, turns: Vec<TurnRecord>) -> State {
    replay(&record(players, turns), false).unwrap_or_else(|e| panic!("{e}"))
}

fn rejected(players: usize, turns: Vec<TurnRecord>) -> String {
    replay(&record(players, turns), false)
        .expect_err("the record must be rejected")
        .to_string()
}

const S0: Seat = Seat(0);
const S1: Seat = Seat(1);

// ----- Receiving --------------------------------------------------------------

/// Seat 0 owns the start tile's road through U at (1, 0).
fn seat0_owns_the_road() -> TurnRecord {
    placed(0, Tile::U, 1, 0, 1, Some("E"))
}

#[test]
fn extending_another_seats_road_earns_a_gift() {
    let t2 = placed(1, Tile::U, -1, 0, 1, None);
    let state = run(
        2,
        vec![seat0_owns_the_road(), received(t2.clone(), Gift::Synod)],
    );
    assert_eq!(state.hand_size(S1), 1);
    assert_eq!(state.view(S1).own_hand().count(Gift::Synod), 1);
    assert_eq!(state.gift_deck_size(), 24);
    // A record that leaves the gift out is refused.
    let err = rejected(2, vec![seat0_owns_the_road(), t2]);
    assert!(
        err.starts_with("turn 2:") && err.contains("earns a gift"),
        "{err}"
    );
}

#[test]
fn extending_an_unoccupied_road_earns_nothing() {
    // Seat 0 extends the start tile's empty road and then occupies it: the
    // majority is judged right after placing, before the meeple.
    let state = run(2, vec![seat0_owns_the_road()]);
    assert_eq!(state.hand_size(S0), 0);
    let err = rejected(2, vec![received(seat0_owns_the_road(), Gift::Synod)]);
    assert!(err.contains("earns no gift"), "{err}");
}

/// Seat 0 on the east road, seat 1 on a separate road south-west; seat 1
/// joins them (tie 1–1), seat 0 adds a second knight... highwayman, and
/// seat 1 extends the road where seat 0 now has the majority 2–1.
fn tie_then_minority() -> Vec<TurnRecord> {
    vec![
        seat0_owns_the_road(),
        placed(1, Tile::V, 0, -1, 0, Some("S")),
        placed(0, Tile::B, 1, 1, 0, None),
        placed(1, Tile::V, -1, -1, 2, None), // extends its own road
        placed(0, Tile::B, 2, 1, 0, None),
        placed(1, Tile::V, -1, 0, 3, None), // joins the roads: 1–1 tie
        placed(0, Tile::V, 3, 1, 3, Some("E")),
        placed(1, Tile::B, 1, 2, 0, None),
        placed(0, Tile::U, 2, 0, 1, None), // seat 0 extends: 1–1, no gift
        received(placed(1, Tile::V, 3, 0, 1, None), Gift::RoadSweeper), // 2–1
    ]
}

#[test]
fn tied_for_the_majority_after_placing_means_no_gift() {
    let turns = tie_then_minority();
    let state = run(2, turns[..6].to_vec());
    assert_eq!(state.hand_size(S1), 0);
    let mut with_gift = turns[..6].to_vec();
    with_gift[5] = received(with_gift[5].clone(), Gift::Synod);
    assert!(rejected(2, with_gift).starts_with("turn 6:"));
}

#[test]
fn extending_your_own_road_where_someone_else_has_more_earns_a_gift() {
    let state = run(2, tie_then_minority());
    assert_eq!(state.hand_size(S0), 0);
    assert_eq!(state.hand_size(S1), 1);
    let road = state
        .segment_at(Pos::new(1, 0), "E".parse().unwrap())
        .unwrap();
    let root = state.features().root(road);
    let on = state.meeples_on(root);
    assert_eq!((on[S0], on[S1]), (2, 1));
}

#[test]
fn extending_several_features_earns_one_gift() {
    let turns = vec![
        seat0_owns_the_road(),
        placed(1, Tile::B, 0, -1, 0, None),
        placed(0, Tile::V, 1, 1, 2, Some("N")),
        placed(1, Tile::B, -1, -1, 0, None),
        placed(0, Tile::V, 2, 1, 0, None),
        // W joins both of seat 0's roads at its village.
        received(placed(1, Tile::W, 2, 0, 1, None), Gift::Take2),
    ];
    let state = run(2, turns);
    assert_eq!(state.hand_size(S1), 1);
    assert_eq!(state.phase(), Phase::Draw);
    assert_eq!(state.to_play(), S0);
}

// ----- Cards --------------------------------------------------------------------

#[test]
fn road_sweeper_scores_for_the_majority_removes_every_meeple_and_the_road_can_be_taken_again() {
    let mut turns = tie_then_minority();
    turns.push(placed(0, Tile::B, 1, 3, 0, None));
    let before = run(2, turns.clone());
    let mut sweep = GiftOpenRecord::new(Gift::RoadSweeper);
    (sweep.x, sweep.y, sweep.at) = (Some(1), Some(0), Some("E".parse().unwrap()));
    // Seat 1 sweeps the 8-tile road (seat 0 has 2 meeples, seat 1 has 1),
    // then extends it south and puts a highwayman on it at once.
    turns.push(opened(placed(1, Tile::U, 0, -2, 0, Some("N")), sweep));
    let after = run(2, turns);
    assert_eq!(after.score(S0).road, before.score(S0).road + 8);
    assert_eq!(after.score(S1).road, before.score(S1).road);
    assert_eq!(after.supply(S0), 7);
    assert_eq!(after.supply(S1), 6);
    let road = after
        .segment_at(Pos::new(1, 0), "E".parse().unwrap())
        .unwrap();
    let on = after.meeples_on(after.features().root(road));
    assert_eq!((on[S0], on[S1]), (0, 1));
    assert_eq!(after.gift_discard().count(Gift::RoadSweeper), 1);
    assert_eq!(after.hand_size(S1), 0);
}

/// Seat 1 holds Take 2; the start tile's city is closed so C fits nowhere.
fn take2_setup() -> Vec<TurnRecord> {
    vec![
        seat0_owns_the_road(),
        received(placed(1, Tile::U, -1, 0, 1, None), Gift::Take2),
        placed(0, Tile::E, 0, 1, 2, None),
    ]
}

#[test]
fn take_2_redraws_past_an_unplaceable_second_tile_and_returns_the_other() {
    let mut take = GiftOpenRecord::new(Gift::Take2);
    take.discarded = vec![Tile::C];
    take.second = Some(Tile::B);
    take.returned = Some(Tile::B);
    let mut turns = take2_setup();
    turns.push(received(
        opened(placed(1, Tile::V, -2, 0, 2, None), take.clone()),
        Gift::Synod,
    ));
    let state = run(2, turns);
    // Drawn: U, U, E, V, C (set aside), B (returned).
    assert_eq!(state.bag().total(), 66);
    assert_eq!(state.bag().count(Tile::B), 4);
    assert_eq!(state.bag().count(Tile::C), 0);
    assert_eq!(state.hand_size(S1), 1);
    assert_eq!(state.gift_discard().count(Gift::Take2), 1);

    // Keeping the second tile instead: U placed, V goes back.
    let mut take = GiftOpenRecord::new(Gift::Take2);
    take.second = Some(Tile::U);
    take.returned = Some(Tile::V);
    let mut turns = take2_setup();
    turns.push(received(
        opened(placed(1, Tile::U, -2, 0, 1, None), take),
        Gift::Synod,
    ));
    let state = run(2, turns);
    assert_eq!(state.bag().count(Tile::V), 9);
    assert_eq!(state.bag().count(Tile::U), 8 - 3);

    // A second tile that could be placed cannot be listed as set aside.
    let mut take = GiftOpenRecord::new(Gift::Take2);
    take.discarded = vec![Tile::B];
    take.second = Some(Tile::U);
    take.returned = Some(Tile::U);
    let mut turns = take2_setup();
    turns.push(opened(placed(1, Tile::V, -2, 0, 2, None), take));
    let err = rejected(2, turns);
    assert!(
        err.starts_with("turn 4:") && err.contains("set aside but has a legal placement"),
        "{err}"
    );
}

#[test]
fn opening_a_gift_twice_or_without_holding_it_is_refused() {
    let mut state = run(2, take2_setup());
    state.draw(Tile::V).unwrap();
    assert_eq!(
        state.try_action(Action::Open(GiftOpen::Synod { at: Pos::new(0, 0) })),
        Err(engine::IllegalMove::GiftNotHeld(Gift::Synod))
    );
    let before = state.clone();
    assert!(state
        .try_action(Action::Open(GiftOpen::Wasted(Gift::Take2)))
        .is_err());
    assert_eq!(state, before);
    state.try_action(Action::Open(GiftOpen::Take2)).unwrap();
    assert!(matches!(state.phase(), Phase::DrawSecond(Tile::V)));
    assert!(state.try_action(Action::Open(GiftOpen::Take2)).is_err());
}

#[test]
fn without_the_gifts_no_card_is_ever_dealt() {
    let mut r = record(
        2,
        vec![seat0_owns_the_road(), placed(1, Tile::U, -1, 0, 1, None)],
    );
    r.rules.gifts = false;
    let state = replay(&r, false).unwrap();
    assert_eq!(state.hand_size(S1), 0);
    assert_eq!(state.gift_deck_size(), 25);
}

// ----- Every opening in random games ------------------------------------------

/// Counts of the situations the seed's notes single out, seen over the
/// random games.
#[derive(Default, Debug)]
struct Seen {
    synod_on_occupied: u32,
    /// Synod onto a monastery holding meeples of three or more seats.
    synod_on_three_seats: u32,
    change_onto_occupied_field: u32,
    wasted: u32,
    take2_empty_stack: u32,
    cash_outs: u32,
    sweeps: u32,
}

fn root_at(state: &State, at: Pos, segment: u8) -> u16 {
    let slot = state.board().slot_at(at).unwrap();
    state
        .features()
        .root((slot * engine::MAX_SEGMENTS + segment as usize) as u16)
}

fn total_on(state: &State, root: u16) -> u8 {
    state.meeples_on(root).0.iter().sum()
}

/// Check the effect of `open` by `seat` from `pre` to `post`.
fn check_open(pre: &State, post: &State, seat: Seat, open: GiftOpen, seen: &mut Seen) {
    let g = open.gift();
    assert_eq!(post.hand_size(seat) + 1, pre.hand_size(seat));
    assert_eq!(
        post.gift_discard().count(g),
        pre.gift_discard().count(g) + 1
    );
    assert!(post.gift_opened() || post.phase() != pre.phase());
    let others_unchanged = |except: Option<Seat>| {
        for s in 0..pre.players() {
            let s = Seat(s as u8);
            if Some(s) != except {
                assert_eq!(pre.score(s), post.score(s), "{open:?}");
            }
        }
    };
    match open {
        GiftOpen::Synod { at } => {
            let p = pre.board().at(at).unwrap();
            let mono = p.tile.oriented(p.rot).monastery;
            let root = root_at(pre, at, mono);
            let before = pre.meeples_on(root);
            let after = post.meeples_on(root);
            assert_eq!(after[seat], before[seat] + 1);
            assert_eq!(post.supply(seat) + 1, pre.supply(seat));
            assert!(!pre.is_complete(root));
            let n: u8 = before.0.iter().sum();
            let seats = before.0.iter().filter(|&&c| c > 0).count();
            seen.synod_on_occupied += (n >= 1) as u32;
            seen.synod_on_three_seats += (seats >= 3) as u32;
            others_unchanged(None);
        }
        GiftOpen::RoadSweeper { at, segment } => {
            let root = root_at(pre, at, segment);
            assert_eq!(pre.segment_kind(root), FeatureKind::Road);
            let counts = pre.meeples_on(root);
            let most = *counts.0.iter().max().unwrap();
            let tiles = pre.features().tiles(root) as u16;
            for s in 0..pre.players() {
                let s = Seat(s as u8);
                let gain = if most > 0 && counts[s] == most {
                    tiles
                } else {
                    0
                };
                assert_eq!(post.score(s).road, pre.score(s).road + gain);
                assert_eq!(post.supply(s), pre.supply(s) + counts[s]);
            }
            assert_eq!(total_on(post, root_at(post, at, segment)), 0);
            seen.sweeps += 1;
        }
        GiftOpen::CashOut { at, segment } => {
            let root = root_at(pre, at, segment);
            let n = total_on(pre, root) as u32;
            assert!(pre.meeples_on(root)[seat] >= 1);
            assert_eq!(post.score(seat).total(), pre.score(seat).total() + 2 * n);
            assert_eq!(post.supply(seat), pre.supply(seat) + 1);
            assert_eq!(total_on(post, root_at(post, at, segment)) as u32, n - 1);
            others_unchanged(Some(seat));
            seen.cash_outs += 1;
        }
        GiftOpen::ChangePosition { at, from, to } => {
            let (rf, rt) = (root_at(pre, at, from), root_at(pre, at, to));
            let field = |r| pre.segment_kind(r) == FeatureKind::Field;
            assert_ne!(field(rf), field(rt), "field <-> road/city/monastery only");
            assert_eq!(
                post.meeples_on(root_at(post, at, to))[seat],
                pre.meeples_on(rt)[seat] + 1
            );
            assert_eq!(post.supply(seat), pre.supply(seat));
            if field(rt) && total_on(pre, rt) > 0 {
                seen.change_onto_occupied_field += 1;
            }
            others_unchanged(None);
        }
        GiftOpen::Take2 => {
            if pre.bag().is_empty() {
                assert_eq!(post.phase(), pre.phase());
                seen.take2_empty_stack += 1;
            } else {
                assert!(matches!(post.phase(), Phase::DrawSecond(_)));
            }
        }
        GiftOpen::Wasted(_) => {
            others_unchanged(None);
            assert_eq!(pre.meeples(), post.meeples());
            seen.wasted += 1;
        }
    }
}

#[test]
fn every_gift_opened_in_random_games_has_exactly_its_effect() {
    let mut seen = Seen::default();
    for seed in 0..1200u64 {
        let players = 2 + (seed % 5) as usize;
        let rules = Rules {
            farmers: seed % 4 != 0,
            gifts: true,
            ..Rules::STANDARD
        };
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(rules, players, Seat(0));
        loop {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            let seat = state.to_play();
            // Open Take 2 on the last tile whenever possible, else play at
            // random.
            let take2_last = state.bag().is_empty()
                && state.view(seat).own_hand().count(Gift::Take2) > 0
                && state.check_action(Action::Open(GiftOpen::Take2)).is_ok();
            let action = if take2_last && rng.gen_bool(0.9) {
                Action::Open(GiftOpen::Take2)
            } else {
                match random_action(&state, &mut rng) {
                    Some(a) => a,
                    None => break,
                }
            };
            let pre = state.clone();
            state.try_action(action).unwrap();
            if let Action::Open(open) = action {
                check_open(&pre, &state, seat, open, &mut seen);
            }
        }
    }
    println!("{seen:?}");
    assert!(seen.synod_on_occupied > 0, "{seen:?}");
    assert!(seen.synod_on_three_seats > 0, "{seen:?}");
    assert!(seen.change_onto_occupied_field > 0, "{seen:?}");
    assert!(seen.wasted > 0, "{seen:?}");
    assert!(seen.take2_empty_stack > 0, "{seen:?}");
    assert!(seen.cash_outs > 0 && seen.sweeps > 0, "{seen:?}");
}

/// Hold gifts while the deck has cards, then open them; place so as to
/// earn a gift whenever some placement does.
fn gift_hungry_action(state: &State, rng: &mut Pcg64Mcg) -> Action {
    let mut action = random_action(state, rng).unwrap();
    if state.gift_deck_size() > 0 {
        while matches!(action, Action::Open(_)) {
            action = random_action(state, rng).unwrap();
        }
    }
    if let Action::Place(_) = action {
        let mut earning = Vec::new();
        state.for_each_move(|m| {
            let mut after = state.clone();
            after.play_unchecked(m);
            if after.phase() == Phase::DrawGift {
                earning.push(m);
            }
        });
        if !earning.is_empty() {
            action = Action::Place(earning[rng.gen_range(0..earning.len())]);
        }
    }
    action
}

#[test]
fn an_empty_deck_takes_the_discard_pile_and_with_every_card_held_nothing_is_received() {
    // Seats hold their gifts until the deck is empty, then open them: the
    // deck runs out, the discard pile fills, and the next gift reshuffles it.
    let (mut reshuffled, mut all_held) = (0, 0);
    for seed in 0..400u64 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(GIFTS, 6, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            let action = gift_hungry_action(&state, &mut rng);
            let (deck, discard) = (state.gift_deck_size(), state.gift_discard().total());
            let seat = state.to_play();
            let held = state.hand_size(seat);
            state.play_action_unchecked(action);
            let Action::Place(_) = action else { continue };
            if deck == 0 && state.phase() == Phase::DrawGift {
                // A gift is due with an empty deck: the discard pile (with
                // any card opened this turn) became the deck.
                assert!(discard > 0 || state.gift_deck_size() > 0);
                assert_eq!(state.gift_discard().total(), 0);
                reshuffled += 1;
            }
            if deck == 0 && discard == 0 && !state.gift_opened() {
                // Every card is held: whatever was extended, nothing is
                // received and the turn passes.
                assert_ne!(state.phase(), Phase::DrawGift);
                assert_eq!(state.hand_size(seat), held);
                all_held += 1;
            }
        }
    }
    assert!(reshuffled > 0, "no reshuffle happened");
    assert!(
        all_held > 0,
        "the deck and discard pile were never both empty"
    );
}

// ----- Hidden information -----------------------------------------------------------

#[test]
fn determinization_does_not_depend_on_other_seats_hidden_cards() {
    // Two games identical but for the card seat 1 received.
    let base = |gift| {
        run(
            2,
            vec![
                seat0_owns_the_road(),
                received(placed(1, Tile::U, -1, 0, 1, None), gift),
            ],
        )
    };
    let (a, b) = (base(Gift::Synod), base(Gift::CashOut));
    assert_ne!(a, b, "the true states differ in seat 1's hand");
    for seed in 0..20 {
        let da = a.view(S0).determinize(&mut Pcg64Mcg::seed_from_u64(seed));
        let db = b.view(S0).determinize(&mut Pcg64Mcg::seed_from_u64(seed));
        assert_eq!(da, db, "seat 0's samples must not see seat 1's card");
        assert_eq!(da.hand_size(S1), 1);
        assert_eq!(da.gift_deck_size(), 24);
    }
    // Seat 1's own view keeps its real card.
    let d = a.view(S1).determinize(&mut Pcg64Mcg::seed_from_u64(1));
    assert_eq!(d.view(S1).own_hand().count(Gift::Synod), 1);
    // The samples vary: over many seeds seat 1's sampled card is not fixed.
    let kinds: std::collections::BTreeSet<_> = (0..50)
        .map(|s| {
            let d = a.view(S0).determinize(&mut Pcg64Mcg::seed_from_u64(s));
            format!("{:?}", d.view(S1).own_hand())
        })
        .collect();
    assert!(kinds.len() > 1);
}

#[test]
fn a_seat_view_shows_other_hands_only_as_counts() {
    let state = run(
        2,
        vec![
            seat0_owns_the_road(),
            received(placed(1, Tile::U, -1, 0, 1, None), Gift::CashOut),
        ],
    );
    let view = state.view(S0);
    assert_eq!(view.hand_size(S1), 1);
    assert_eq!(view.own_hand().total(), 0);
    // The Debug output an agent could print carries no hand either.
    let shown = format!("{view:?}");
    assert!(
        !shown.contains("CashOut") && !shown.contains("cash_out"),
        "{shown}"
    );
}

#[test]
fn a_view_lists_no_actions_of_another_seat() {
    // Seat 1 holds a card and is to play: seat 0's view must not list (or
    // accept) seat 1's gift openings, which would reveal the card.
    let mut state = run(
        2,
        vec![
            seat0_owns_the_road(),
            received(placed(1, Tile::U, -1, 0, 1, None), Gift::CashOut),
            placed(0, Tile::B, 0, -1, 0, None),
        ],
    );
    state.draw(Tile::V).unwrap();
    assert_eq!(state.to_play(), S1);
    let mut own = 0;
    state.view(S1).for_each_action(|_| own += 1);
    assert!(own > 0);
    let mut other = 0;
    state.view(S0).for_each_action(|_| other += 1);
    assert_eq!(other, 0);
    let open = Action::Open(GiftOpen::CashOut {
        at: Pos::new(1, 0),
        segment: 0,
    });
    assert!(state.view(S0).check_action(open).is_err());
    assert!(state
        .view(S0)
        .random_action(&mut Pcg64Mcg::seed_from_u64(1))
        .is_none());
}

#[test]
fn a_gift_record_with_fields_of_another_card_is_refused() {
    let mut sweep = GiftOpenRecord::new(Gift::Synod);
    (sweep.x, sweep.y, sweep.at) = (Some(1), Some(0), Some("E".parse().unwrap()));
    let mut turns = take2_setup();
    turns.push(opened(placed(1, Tile::V, -2, 0, 2, None), sweep));
    let err = rejected(2, turns);
    assert!(err.contains("synod: has no \"at\""), "{err}");
    let mut take = GiftOpenRecord::new(Gift::Take2);
    take.x = Some(0);
    let mut turns = take2_setup();
    turns.push(opened(placed(1, Tile::V, -2, 0, 2, None), take));
    assert!(rejected(2, turns).contains("take_2: has no \"x\""));
}

#[test]
fn after_a_reshuffle_samples_keep_the_deck_within_the_pile_it_came_from() {
    let mut checked = 0;
    for seed in 0..200u64 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut state = State::new(GIFTS, 6, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            let pool = state.gift_deck_pool();
            let within = |deck: engine::GiftCards| deck.common(&pool) == deck;
            assert!(
                within(state.gift_deck()),
                "the true deck is part of its pool"
            );
            if pool != engine::GiftCards::FULL && state.gift_deck_size() > 0 {
                let seat = state.to_play();
                let view = state.view(seat);
                for k in 0..5 {
                    let sample = view.determinize(&mut Pcg64Mcg::seed_from_u64(k));
                    assert!(within(sample.gift_deck()), "seed {seed}");
                    assert_eq!(sample.gift_deck_size(), state.gift_deck_size());
                    assert_eq!(sample.view(seat).own_hand(), view.own_hand());
                    for s in 0..6 {
                        assert_eq!(sample.hand_size(Seat(s)), state.hand_size(Seat(s)));
                    }
                }
                checked += 1;
            }
            let action = gift_hungry_action(&state, &mut rng);
            state.play_action_unchecked(action);
        }
    }
    assert!(checked > 0, "no position after a reshuffle was reached");
}
