//! Playing one game to the terminal.

use engine::playout::random_move;
use engine::{Phase, Record, Rules, Seat, State, TurnRecord};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Play one random game from `seed`, print each turn and the final
/// scores, then the game's record as JSON.
pub fn print_random_game(seed: u64, players: usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = State::new(Rules::default(), players, Seat(0));
    let mut record = Record::new(players, Rules::default());
    record.seed = Some(seed);
    let mut discarded = Vec::new();
    loop {
        match state.phase() {
            Phase::Draw => {
                let seat = state.to_play();
                let (tile, drawn) = state.draw_random(&mut rng);
                if drawn == engine::Drawn::SetAside {
                    println!("{seat}: {tile} has no legal placement, set aside");
                    discarded.push(tile);
                    if state.is_over() {
                        record.turns.push(TurnRecord::discards_only(
                            seat,
                            std::mem::take(&mut discarded),
                        ));
                    }
                }
            }
            Phase::Place(tile) => {
                let seat = state.to_play();
                let mv = random_move(&state, &mut rng).expect("placeable tile");
                println!("{seat}: {}", mv.display(tile));
                state.play_unchecked(mv);
                record.turns.push(TurnRecord::new(
                    seat,
                    std::mem::take(&mut discarded),
                    tile,
                    mv,
                ));
            }
            Phase::Over => break,
        }
    }
    for s in 0..players {
        let sc = state.score(Seat(s as u8));
        println!(
            "seat {s}: {} points (road {}, city {}, monastery {}, farm {})",
            sc.total(),
            sc.road,
            sc.city,
            sc.monastery,
            sc.farm
        );
    }
    println!(
        "{}",
        serde_json::to_string(&record).expect("records serialize")
    );
}
