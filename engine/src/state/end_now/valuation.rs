//! Points and who wins them: a feature's end-now value after a
//! placement, the completed cities a farm counts, and the score
//! arithmetic (`give`, `take`, wrapping deltas) the end-now scores use.

use super::super::State;
use super::field_cache::FieldLists;
use super::overlay::{Key, Overlay, GROUP};
use crate::features::MAX_SEGMENT_IDS;
use crate::seat::{PerSeat, Score, MAX_PLAYERS};
use crate::tiles::{FeatureKind, MAX_SEGMENTS};

/// Add `points` of feature `kind` to `score`.
#[inline]
pub(in crate::state) fn add_points(score: &mut Score, kind: FeatureKind, points: u16) {
    *part(score, kind) += points;
}

/// `a + d`, part by part, modulo 2^16.
#[inline]
pub(super) fn wrapping_add(a: Score, d: Score) -> Score {
    Score {
        road: a.road.wrapping_add(d.road),
        city: a.city.wrapping_add(d.city),
        monastery: a.monastery.wrapping_add(d.monastery),
        farm: a.farm.wrapping_add(d.farm),
        gifts: a.gifts.wrapping_add(d.gifts),
    }
}

/// The total of a change counted modulo 2^16 part by part (each part's
/// change is below 2^15 either way).
#[inline]
pub(super) fn signed_total(d: &Score) -> i32 {
    [d.road, d.city, d.monastery, d.farm, d.gifts]
        .iter()
        .map(|&p| p as i16 as i32)
        .sum()
}

/// What feature `key` (of `kind`, holding meeples) scores if the game
/// ends right after the placement `ov`: what it completes as in play,
/// the rest as in the final scoring.
pub(super) fn points(
    touches: &mut FieldLists<'_>,
    state: &State,
    ov: &Overlay,
    key: Key,
    kind: FeatureKind,
) -> u16 {
    let rules = state.rules();
    match kind {
        FeatureKind::Field if !rules.farmers => 0,
        FeatureKind::Field => 3 * completed_cities(touches, state, ov, key),
        // With `final_incomplete: false` the unfinished rest scores
        // nothing (RULES.md §8). (Features holding meeples are never
        // complete but through the placement.)
        _ if !rules.final_incomplete && !ov.is_complete(state, key, kind) => 0,
        _ => ov.value(state, key, kind),
    }
}

/// Distinct completed cities touching field `key` after the placement
/// `ov`.
pub(super) fn completed_cities(
    fields: &mut FieldLists<'_>,
    state: &State,
    ov: &Overlay,
    key: Key,
) -> u16 {
    let complete = |city: Key| ov.counters(state, city).open() == 0;
    // Completed groups (bits by node) and state roots seen, counted as
    // they are first seen (no popcount on plain x86-64).
    let mut groups = 0u32;
    let mut roots = [0u64; MAX_SEGMENT_IDS.div_ceil(64)];
    let mut count = 0u16;
    let mut mark = |city: Key| {
        if !complete(city) {
        } else if city & GROUP != 0 {
            let bit = 1 << (city & !GROUP);
            count += (groups & bit == 0) as u16;
            groups |= bit;
        } else {
            let (word, bit) = (&mut roots[city as usize / 64], 1 << (city % 64));
            count += (*word & bit == 0) as u16;
            *word |= bit;
        }
    };
    if key & GROUP == 0 {
        for &city in fields.touches(state, key) {
            mark(ov.map_root(state.features.root(city)));
        }
    } else {
        let node = (key & !GROUP) as u8;
        let segments = ov.tile.def().segments;
        for (i, seg) in segments.iter().enumerate() {
            if ov.parent[i] != node {
                continue;
            }
            let mut touches = seg.touches;
            while touches != 0 {
                let c = touches.trailing_zeros() as usize;
                touches &= touches - 1;
                mark(GROUP | ov.parent[c] as Key);
            }
        }
        for k in 0..ov.joined {
            if ov.parent[MAX_SEGMENTS + k] == node {
                for &city in fields.touches(state, ov.roots[k]) {
                    mark(ov.map_root(state.features.root(city)));
                }
            }
        }
    }
    count
}

/// The seats (bit per seat) with the most meeples by `counts`.
#[inline]
pub(super) fn winners(counts: &[u8; MAX_PLAYERS], players: u8) -> u8 {
    let most = *counts.iter().max().expect("six seats");
    let mut mask = 0;
    for (s, &c) in counts.iter().enumerate().take(players as usize) {
        if c == most {
            mask |= 1 << s;
        }
    }
    mask
}

/// The part of `score` that feature `kind` scores in.
#[inline]
pub(super) fn part(score: &mut Score, kind: FeatureKind) -> &mut u16 {
    match kind {
        FeatureKind::Road => &mut score.road,
        FeatureKind::City => &mut score.city,
        FeatureKind::Monastery => &mut score.monastery,
        FeatureKind::Field => &mut score.farm,
    }
}

/// Give `points` of feature `kind` to each seat of `winners`.
#[inline]
pub(super) fn give(scores: &mut PerSeat<Score>, kind: FeatureKind, points: u16, mut winners: u8) {
    if points == 0 {
        return;
    }
    while winners != 0 {
        let s = winners.trailing_zeros() as usize;
        winners &= winners - 1;
        let p = part(&mut scores.0[s], kind);
        *p = p.wrapping_add(points);
    }
}

/// Take back what [`give`] gave.
#[inline]
pub(super) fn take(scores: &mut PerSeat<Score>, kind: FeatureKind, points: u16, mut winners: u8) {
    if points == 0 {
        return;
    }
    while winners != 0 {
        let s = winners.trailing_zeros() as usize;
        winners &= winners - 1;
        let p = part(&mut scores.0[s], kind);
        *p = p.wrapping_sub(points);
    }
}

/// Two points per unopened gift (RULES.md §5).
pub(super) fn add_gifts(state: &State, scores: &mut PerSeat<Score>) {
    for s in 0..state.players as usize {
        scores.0[s].gifts += 2 * state.gifts.hands[s].total() as u16;
    }
}
