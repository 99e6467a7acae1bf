//! [`EndNow::effects`](super::EndNow::effects) against playing each
//! placement on a copy (the reference): every field of [`PlaceEffects`]
//! for every legal placement of random positions, under the base game,
//! The Gifts, hands and every house rule of RULES.md §8, 2 to 6 players.

use super::{PlaceEffects, State};
use crate::features::segment_id;
use crate::geom::{Location, Pos, Side};
use crate::playout::random_action;
use crate::rules::Rules;
use crate::seat::Seat;
use crate::tiles::FeatureKind;
use crate::turn::{Action, Phase};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What placing `action` does, read from a copy of `state` it is played
/// on (the reference `EndNow::effects` must equal).
fn played(state: &State, action: Action) -> PlaceEffects {
    let Action::Place(mv) = action else {
        unreachable!("placements only")
    };
    let me = state.to_play();
    let mut next = state.clone();
    next.play_action_unchecked(action);
    let pos = mv.placement.pos;
    let slot = next.board().slot_at(pos).expect("placed");
    let mut points = [0; crate::seat::MAX_PLAYERS];
    for (s, p) in points.iter_mut().enumerate().take(state.players()) {
        let seat = Seat(s as u8);
        *p = next.score(seat).total() - state.score(seat).total();
    }
    let tile = next.board().placed(slot).tile;
    let (mut roots, mut city, mut road) = (Vec::new(), 0, 0);
    for i in 0..tile.segment_count() as u8 {
        let id = segment_id(slot, i);
        let root = next.features().root(id);
        match next.segment_kind(id) {
            FeatureKind::City => city = city.max(next.features().tiles(root)),
            FeatureKind::Road => road = road.max(next.features().tiles(root)),
            _ => continue,
        }
        if next.is_complete(id) && !roots.contains(&root) {
            roots.push(root);
        }
    }
    let mut completed = roots.len();
    for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
        let at = Pos::new(pos.x + dx, pos.y + dy);
        if let Some(id) = next.segment_at(at, Location::Monastery) {
            let before = state.segment_at(at, Location::Monastery);
            if next.is_complete(id) && !before.is_some_and(|b| state.is_complete(b)) {
                completed += 1;
            }
        }
    }
    let neighbours = Side::ALL
        .iter()
        .filter(|s| next.board().at(pos.step(**s)).is_some())
        .count();
    let meeple = mv.meeple.map(|segment| {
        let id = segment_id(slot, segment);
        let kind = next.segment_kind(id);
        super::MeepleFeature {
            kind,
            tiles: match kind {
                FeatureKind::Monastery => 1 + next.board().placed(slot).surrounded.min(8),
                _ => next.features().tiles(next.features().root(id)),
            },
            value: next.feature_value(id),
            complete: next.is_complete(id),
        }
    });
    PlaceEffects {
        end_now: next.end_now_scores(),
        points,
        ends_game: next.is_over(),
        earns_gift: next.phase() == Phase::DrawGift,
        supply_after: next.supply(me),
        completed: completed as u8,
        city_tiles: city,
        road_tiles: road,
        neighbours: neighbours as u8,
        meeple,
    }
}

/// What the checks met, so a test can require that each case came up.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    placements: usize,
    ends_game: usize,
    earns_gift: usize,
    completed: usize,
    meeple_complete: usize,
    hand: usize,
}

/// Plays `games` random games under `rules` (2 to 6 seats) and checks
/// every placement of every decision.
fn check(rules: Rules, games: u64, seen: &mut Seen) {
    for seed in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(7000 + seed);
        let players = rng.gen_range(2..=6);
        let mut state = State::new(rules, players, Seat(0));
        while !state.is_over() {
            if state.is_chance() {
                state.apply_chance(&mut rng);
                continue;
            }
            seen.positions += 1;
            let mut end_now = state.end_now();
            state.for_each_action(|action| {
                let Action::Place(mv) = action else {
                    return;
                };
                let expected = played(&state, action);
                let got = end_now.effects(mv);
                assert_eq!(
                    got,
                    expected,
                    "{rules:?}, seed {seed}, turn {}, {action:?}",
                    state.turns()
                );
                assert_eq!(state.place_effects(mv), expected);
                seen.placements += 1;
                seen.ends_game += usize::from(got.ends_game);
                seen.earns_gift += usize::from(got.earns_gift);
                seen.completed += usize::from(got.completed > 0);
                seen.meeple_complete += usize::from(got.meeple.is_some_and(|m| m.complete));
                seen.hand += usize::from(state.phase() == Phase::PlaceHand);
            });
            let action = random_action(&state, &mut rng).expect("a legal action");
            state.play_action_unchecked(action);
        }
    }
}

#[test]
fn placement_effects_equal_playing_it_on_a_copy() {
    let variants = [
        "",
        "farmers=false",
        "gifts=true",
        "gifts=true,unplaceable=return,hole_bonus=true",
        "start_in_bag=true,final_incomplete=false",
        "hole_bonus=true,farmers=false",
        "unplaceable=return",
        "hand=1",
        "hand=3,hand_visible=true",
        "hand=2,unplaceable=return,hole_bonus=true",
        "table=9x9",
        "table=5x5,table_closes=true",
        "table=7x5,table_closes=true,unplaceable=return,gifts=true",
        "table=5x3,hand=2,unplaceable=return,table_closes=true",
    ];
    let mut all = Seen::default();
    for text in variants {
        let rules: Rules = text.parse().expect(text);
        let mut seen = Seen::default();
        check(rules, 3, &mut seen);
        // On a small table without `return` the game ends at a draw (the
        // bag runs out of tiles that fit nowhere), not at a placement.
        if rules.table.is_none() || rules.unplaceable == crate::rules::Unplaceable::Return {
            assert!(seen.ends_game > 0, "{text}: {seen:?}");
        }
        if rules.gifts {
            assert!(seen.earns_gift > 0, "{text}: {seen:?}");
        }
        if rules.hand > 0 {
            assert!(seen.hand > 0, "{text}: {seen:?}");
        }
        all.positions += seen.positions;
        all.placements += seen.placements;
        all.completed += seen.completed;
        all.meeple_complete += seen.meeple_complete;
    }
    assert!(all.positions > 2_000, "{all:?}");
    assert!(
        all.completed > 1_000 && all.meeple_complete > 100,
        "{all:?}"
    );
}
