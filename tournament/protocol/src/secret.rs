//! Keyed one-way seeds: what an external bot is told as its `seed`, and
//! the deck seeds of `--secret-decks` runs (docs/PROTOCOL.md, "What a bot
//! can infer").
//!
//! The schedule's seeds (`tournament::run::schedule`) come from splitmix64 chains:
//! fast, well mixed and *invertible*, so a bot given one of them could
//! recover the master seed and with it every deck. What leaves the
//! toolkit therefore goes through HMAC-SHA256 (RFC 2104 over FIPS 180-4;
//! the RustCrypto `hmac` and `sha2` crates), a keyed one-way function:
//! without the key its outputs reveal nothing of their inputs, and from
//! outputs alone the key can only be guessed. HMAC-SHA256 rather than
//! keyed BLAKE3 because every language has it in its standard library
//! (Python's `hmac`), so an organiser can check a finished run's seeds
//! with a few lines of script.
//!
//! - A bot's seed is `HMAC(bot_key, "carcassonne-bot-seed/1" ‖ agent seed)`
//!   ([`Secret::bot_seed`]), where the agent seed is the one the schedule
//!   gives the seat (the seed a built-in agent in that seat uses) and
//!   `bot_key = HMAC("carcassonne-bot-key/1", --seed)` ([`Secret::bot_key`]).
//!   So runs reproduce from `--seed`, and a bot that wants the master seed
//!   has to guess it: a small or well-known `--seed` is no secret.
//! - With `--secret-decks` a deck's seed is
//!   `HMAC(deck_key, "carcassonne-deck-seed/1" ‖ deck number)`
//!   ([`Secret::deck_seed`]), the 32-byte key drawn from the operating
//!   system ([`Secret::random`]) and revealed in run.json when the run
//!   ends.
//!
//! Every input word is 8 bytes little-endian; a seed is the first 8
//! bytes of the MAC, little-endian.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Domain of [`Secret::bot_key`].
const BOT_KEY_DOMAIN: &[u8] = b"carcassonne-bot-key/1";
/// Domain of [`Secret::bot_seed`].
const BOT_SEED_DOMAIN: &[u8] = b"carcassonne-bot-seed/1";
/// Domain of [`Secret::deck_seed`].
const DECK_SEED_DOMAIN: &[u8] = b"carcassonne-deck-seed/1";

/// A 256-bit key. Its `Debug` form hides it; [`Secret::to_hex`] shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret([u8; 32]);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// The MAC of `parts` under `key`.
fn mac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut m = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    for part in parts {
        m.update(part);
    }
    m.finalize().into_bytes().into()
}

/// The first 8 bytes of `bytes`, little-endian.
fn first_word(bytes: &[u8; 32]) -> u64 {
    u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"))
}

impl Secret {
    /// The key of the seeds sent to bots in a run of master seed `seed`:
    /// `HMAC("carcassonne-bot-key/1", seed)`.
    pub fn bot_key(seed: u64) -> Secret {
        Secret(mac(BOT_KEY_DOMAIN, &[&seed.to_le_bytes()]))
    }

    /// A key from the operating system's generator.
    ///
    /// # Errors
    /// The system has no entropy to give (one line).
    pub fn random() -> Result<Secret, String> {
        use rand::RngCore;
        let mut key = [0u8; 32];
        rand::rngs::OsRng
            .try_fill_bytes(&mut key)
            .map_err(|e| format!("cannot draw a secret key from the operating system: {e}"))?;
        Ok(Secret(key))
    }

    /// The seed sent to the bot whose seat the schedule gives `agent_seed`.
    pub fn bot_seed(&self, agent_seed: u64) -> u64 {
        first_word(&mac(&self.0, &[BOT_SEED_DOMAIN, &agent_seed.to_le_bytes()]))
    }

    /// The seed of deck number `deck` under this deck key.
    pub fn deck_seed(&self, deck: u64) -> u64 {
        first_word(&mac(&self.0, &[DECK_SEED_DOMAIN, &deck.to_le_bytes()]))
    }

    /// The key as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Read 64 hex digits (surrounding white space ignored).
    ///
    /// # Errors
    /// Anything else (one line, without the text, which may be a key).
    pub fn from_hex(text: &str) -> Result<Secret, String> {
        let text = text.trim();
        let bad = || "a key is 64 hex digits".to_string();
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Secret(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        // RFC 4231, test case 2: key "Jefe".
        let out = mac(b"Jefe", &[b"what do ya want ", b"for nothing?"]);
        let hex: String = out.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn seeds_depend_on_key_and_input_and_keys_round_trip_as_hex() {
        let (a, b) = (Secret::bot_key(1), Secret::bot_key(2));
        assert_ne!(a, b);
        assert_eq!(a, Secret::bot_key(1));
        assert_ne!(a.bot_seed(7), b.bot_seed(7));
        assert_ne!(a.bot_seed(7), a.bot_seed(8));
        assert_ne!(a.bot_seed(7), a.deck_seed(7));
        assert_eq!(Secret::from_hex(&a.to_hex()), Ok(a.clone()));
        assert_eq!(format!("{a:?}"), "Secret(..)");
        for bad in ["", "00", &"g".repeat(64), &"é".repeat(32)] {
            assert!(Secret::from_hex(bad).is_err(), "{bad}");
        }
        let (r, s) = (Secret::random().unwrap(), Secret::random().unwrap());
        assert_ne!(r, s);
    }

    #[test]
    fn seeds_match_the_documented_derivation() {
        // Computed with Python's hmac and hashlib, as docs/PROTOCOL.md
        // tells an organiser to check a run.
        let key = Secret::bot_key(1);
        assert_eq!(key.bot_seed(0), 10434809152417447326);
        assert_eq!(key.deck_seed(3), 18328714071373720484);
    }
}
