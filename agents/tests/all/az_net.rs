//! `az:net=PATH` plays with the network of agents::neural: the file is
//! read once, a removed file does not stop later games, and a missing or
//! foreign file is a one-line error naming it.

use agents::game::play_game;
use agents::neural::{NetConfig, NetEvaluator};
use agents::{from_spec, Agent};
use engine::Rules;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("az-net-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn game(spec: &str, seed: u64) -> Vec<engine::Score> {
    let mut seats: Vec<Box<dyn Agent>> =
        vec![from_spec(spec).unwrap(), from_spec("random").unwrap()];
    let outcome = play_game(&mut seats, Rules::default(), seed, &[1, 2]);
    outcome.scores
}

#[test]
fn az_plays_with_a_network_file_read_once() {
    let dir = scratch("once");
    let path = dir.join("net.safetensors");
    NetEvaluator::new(NetConfig::TINY, 3).save(&path).unwrap();
    let spec = format!("az:net={},iterations=8,batch=4", path.display());
    let first = game(&spec, 11);
    assert_eq!(first, game(&spec, 11), "the same seed gives the same game");
    // The file read at the first spec is served from memory afterwards.
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        first,
        game(&spec, 11),
        "a removed file does not stop later games"
    );
}

#[test]
fn a_missing_or_foreign_network_file_is_a_one_line_error() {
    let dir = scratch("errors");
    let missing = dir.join("missing.safetensors");
    let err = from_spec(&format!("az:net={}", missing.display()))
        .err()
        .expect("a missing file is refused")
        .to_string();
    assert!(
        err.contains("missing.safetensors") && !err.contains('\n'),
        "{err}"
    );
    let foreign = dir.join("foreign.safetensors");
    std::fs::write(&foreign, b"not a network").unwrap();
    let err = from_spec(&format!("az:net={}", foreign.display()))
        .err()
        .expect("a file that is not a network is refused")
        .to_string();
    assert!(
        err.contains("foreign.safetensors") && !err.contains('\n'),
        "{err}"
    );
}
