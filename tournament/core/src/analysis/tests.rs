use super::*;
use agents::game::play_game;
use agents::greedy::action_value;
use engine::{Gift, Phase, Rules, Seat, TurnRecord};

/// A game of `specs` (one per seat) with `rules` from `seed`.
fn game(specs: &[&str], rules: Rules, seed: u64) -> Record {
    let mut agents: Vec<Box<dyn Agent>> = specs
        .iter()
        .map(|s| agents::from_spec(s).unwrap())
        .collect();
    let seeds: Vec<u64> = (0..specs.len() as u64).map(|s| seed * 10 + s).collect();
    play_game(&mut agents, rules, seed, &seeds).record
}

fn gifts() -> Rules {
    Rules {
        gifts: true,
        ..Rules::default()
    }
}

#[test]
fn the_decisions_of_a_gifts_game_are_its_actions_in_order() {
    // A game with a Take 2 and another gift opened.
    let (record, outcome_decisions) = (1..)
        .map(|seed| {
            let mut agents: Vec<Box<dyn Agent>> = vec![
                agents::from_spec("random").unwrap(),
                agents::from_spec("random").unwrap(),
            ];
            let o = play_game(&mut agents, gifts(), seed, &[seed, seed + 1]);
            let made: u32 = o.decisions.iter().sum();
            (o.record, made)
        })
        .find(|(r, _)| {
            let opened: Vec<Gift> = r
                .turns
                .iter()
                .filter_map(|t| t.gift_open.as_ref().map(|g| g.card))
                .collect();
            let take2 = r.turns.iter().any(|t| {
                t.gift_open
                    .as_ref()
                    .is_some_and(|g| g.card == Gift::Take2 && g.second.is_some())
            });
            take2 && opened.iter().any(|&g| g != Gift::Take2)
        })
        .unwrap();
    let list = decisions(&record).unwrap();
    assert_eq!(list.len() as u32, outcome_decisions);
    let mut kinds = [0; 3];
    for d in &list {
        assert_eq!(d.state.check_action(d.action), Ok(()), "turn {}", d.turn);
        assert!(!matches!(d.state.phase(), Phase::Over));
        kinds[match d.action {
            Action::Place(_) => 0,
            Action::Open(_) => 1,
            Action::Keep(_) => 2,
        }] += 1;
    }
    assert!(kinds[1] >= 2 && kinds[2] >= 1, "{kinds:?}");
    // Each decision's action, with the chance steps between, leads to
    // the next decision: the next one's state follows from playing it.
    for w in list.windows(2) {
        let mut s = w[0].state.clone();
        s.try_action(w[0].action).unwrap();
        assert!(s.turns() <= w[1].state.turns());
    }
}

#[test]
fn a_record_with_hands_of_tiles_is_refused_with_one_line() {
    let record = Record::new(2, "hand=2".parse().unwrap());
    let err = decisions(&record).map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("hands of tiles"), "{err}");
}

/// A greedy game cut after the turn of a decision where the best and the worst
/// placement differ by at least `gap` points at once, with the state
/// there, the best and the worst action.
fn clear_choice(gap: i32) -> (Record, State, Action, Action) {
    for seed in 1.. {
        let record = game(&["greedy", "greedy"], Rules::default(), seed);
        for d in decisions(&record).unwrap().into_iter().skip(4).take(12) {
            let values: Vec<(i32, Action)> = d
                .state
                .legal_actions()
                .into_iter()
                .map(|a| (action_value(&d.state, a), a))
                .collect();
            let best = *values.iter().max_by_key(|v| v.0).unwrap();
            let worst = *values.iter().min_by_key(|v| v.0).unwrap();
            if best.0 - worst.0 >= gap {
                // The game up to that turn (whose move is replaced).
                let mut cut = record.clone();
                cut.turns.truncate(d.turn);
                cut.final_scores = None;
                return (cut, d.state, best.1, worst.1);
            }
        }
    }
    unreachable!()
}

/// `record` with `action` played at `state` as its next turn.
fn with_turn(record: &Record, state: &State, action: Action) -> Record {
    let Action::Place(mv) = action else {
        panic!("a placement")
    };
    let mut out = record.clone();
    // The tiles the game set aside before the drawn one.
    let discarded = out.turns.pop().unwrap().discarded;
    out.turns.push(TurnRecord::new(
        state.to_play(),
        discarded,
        state.drawn_tile().unwrap(),
        mv,
    ));
    out
}

#[test]
fn a_planted_losing_move_is_flagged_and_the_best_one_is_not() {
    let (cut, state, best, worst) = clear_choice(15);
    let factory = Factory::new("mcts:iterations=1500").unwrap();
    let settings = Settings::default();
    let bad = analyze_record(&with_turn(&cut, &state, worst), &factory, &settings).unwrap();
    let last = bad.decisions.last().unwrap();
    assert!(
        matches!(last.verdict, Verdict::Blunder | Verdict::Mistake),
        "{:?} lost {:?}",
        last.verdict,
        last.points_lost
    );
    assert!(last.points_lost.unwrap() >= settings.mistake);
    assert_ne!(last.position.best.raw, worst);
    let good = analyze_record(&with_turn(&cut, &state, best), &factory, &settings).unwrap();
    let last = good.decisions.last().unwrap();
    assert!(
        matches!(last.verdict, Verdict::Best | Verdict::Good),
        "{:?} lost {:?}",
        last.verdict,
        last.points_lost
    );
    // The same seed repeats the analysis; the decisions before are the
    // same whatever the last move.
    let again = analyze_record(&with_turn(&cut, &state, best), &factory, &settings).unwrap();
    assert_eq!(good, again);
    let n = good.decisions.len() - 1;
    assert_eq!(good.decisions[..n], bad.decisions[..n]);
    // The summary counts the planted move against its seat.
    let seat = &bad.seats[state.to_play().index()];
    assert!(seat.mistakes + seat.blunders >= 1);
    assert!(seat.points_lost >= settings.mistake);
}

#[test]
fn the_top_moves_are_legal_moves_of_their_position() {
    let record = game(&["greedy", "mcts:iterations=50"], gifts(), 3);
    let factory = Factory::new("mcts:iterations=100").unwrap();
    let settings = Settings {
        top: 3,
        ..Settings::default()
    };
    let analysis = analyze_record(&record, &factory, &settings).unwrap();
    let list = decisions(&record).unwrap();
    assert_eq!(analysis.decisions.len(), list.len());
    for (a, d) in analysis.decisions.iter().zip(&list) {
        assert_eq!(a.played.raw, d.action);
        assert_eq!(a.seat, d.state.to_play().0);
        assert!(!a.position.top.is_empty() && a.position.top.len() <= 3);
        assert_eq!(a.position.top[0].raw, a.position.best.raw);
        for m in &a.position.top {
            assert_eq!(d.state.check_action(m.raw), Ok(()), "{}", m.action);
            assert_eq!(m.action, d.state.describe(m.raw));
            assert_eq!(m.place.is_some(), matches!(m.raw, Action::Place(_)));
        }
        if a.position.legal > 1 {
            let shares: f64 = a.position.searched.iter().map(|m| m.share).sum();
            assert!((shares - 1.0).abs() < 1e-9, "{shares}");
        }
    }
    let csv = csv_text(&analysis).unwrap();
    assert_eq!(csv.lines().count(), list.len() + 1);
    assert_eq!(csv.lines().next().unwrap(), CSV_COLUMNS.join(","));
    let json = serde_json::to_value(&analysis).unwrap();
    assert_eq!(json["format"], FORMAT);
    assert!(json["decisions"][0]["top"][0]["visits"].is_u64());
}

#[test]
fn the_analysis_of_a_seat_ignores_what_it_cannot_see() {
    // Two positions that seat 0 cannot tell apart (other determinizations
    // of its view: the other seat's gift cards differ) give the same
    // analysis.
    let record = game(&["random", "random"], gifts(), 5);
    let list = decisions(&record).unwrap();
    let mut compared = 0;
    for d in list.iter().filter(|d| d.state.legal_actions().len() > 1) {
        let seat = d.state.to_play();
        let other = Seat(1 - seat.0);
        let view = d.state.view(seat);
        let mut rng = AgentRng::seed_from_u64(9);
        let Some(twin) = (0..50)
            .map(|_| view.determinize(&mut rng))
            .find(|s| s.view(other).own_hand() != d.state.view(other).own_hand())
        else {
            continue;
        };
        assert_eq!(twin.view(seat).own_hand(), view.own_hand());
        let analyse = |state: &State| {
            let mut agent = agents::from_spec("mcts:iterations=200").unwrap();
            let played = d.action;
            analyze_decision(
                agent.as_mut(),
                &state.view(seat),
                played,
                &mut decision_rng(4, 0),
                &Settings::default(),
            )
            .unwrap()
        };
        assert_eq!(analyse(&d.state), analyse(&twin));
        compared += 1;
        if compared == 3 {
            break;
        }
    }
    assert_eq!(compared, 3, "positions where the other seat holds a card");
}

#[test]
fn the_analysis_of_one_seat_is_that_seats_part_of_the_whole_analysis() {
    let record = game(&["greedy", "random"], gifts(), 4);
    let factory = Factory::new("mcts:iterations=30").unwrap();
    let settings = Settings::default();
    let whole = analyze_record(&record, &factory, &settings).unwrap();
    let one = analyze_seat(&record, Seat(1), &factory, &settings).unwrap();
    let theirs: Vec<&DecisionAnalysis> = whole.decisions.iter().filter(|d| d.seat == 1).collect();
    assert!(!theirs.is_empty());
    assert_eq!(one.decisions.iter().collect::<Vec<_>>(), theirs);
    assert_eq!(one.seats[1], whole.seats[1]);
    assert_eq!(one.seats[0].decisions, 0);
}
