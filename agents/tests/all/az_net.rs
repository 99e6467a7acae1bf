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

/// The networks shipped in models/ fit this build's encoding (a new
/// encoding version fails here until they are made again), suit the
/// rules they were trained for, and play them; `az-2p-raw` reads no
/// hand-made position features.
#[test]
fn the_shipped_networks_load_and_play_their_rules() {
    let gifts: Rules = "gifts=true".parse().unwrap();
    for (file, rules, players) in [
        ("net-2p", Rules::default(), 2),
        ("net-2p-zero", Rules::default(), 2),
        ("az-2p", Rules::default(), 2),
        ("az-2p-raw", Rules::default(), 2),
        ("net-gifts", gifts, 2),
        ("az-gifts", gifts, 2),
        ("net-3p", Rules::default(), 3),
        ("az-3p", Rules::default(), 3),
    ] {
        let path = format!(
            "{}/../models/{file}.safetensors",
            env!("CARGO_MANIFEST_DIR")
        );
        let net = NetEvaluator::load(std::path::Path::new(&path)).unwrap();
        assert_eq!(net.net.config.features, file != "az-2p-raw", "{file}");
        let spec = format!("az:net={path},iterations=8,lead=0.5");
        let factory = agents::Factory::new(&spec).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(factory.unsuited_to(&rules, players), None, "{file}");
        let mut seats: Vec<Box<dyn Agent>> = vec![from_spec(&spec).unwrap()];
        seats.extend((1..players).map(|_| from_spec("random").unwrap()));
        let agent_seeds: Vec<u64> = (1..=players as u64).collect();
        let out = play_game(&mut seats, rules, 5, &agent_seeds);
        assert!(out.forfeit.is_none(), "{file}: {:?}", out.forfeit);
    }
}
