#!/usr/bin/env bash
# Engine, tournament, MCTS and bot-protocol speed against the baseline 6a347b9: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
B=/work/wt-baseline/target/release   # 6a347b9, cargo build --release there
cargo build --release -p carcassonne --bin carcassonne --example mcts_speed
cargo build --release -p carcassonne-engine --example random_games
./scripts/compare-instructions $B target/release 1000
./scripts/compare-speed $B target/release 5
cargo run --release -- bench --json --games 5000 --rounds 3 --tournament-games 5000 --ext-games 0
