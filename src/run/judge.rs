//! The independent entailment judge: an OpenAI-compatible endpoint that decides the
//! (claim, quote) pairs the entailment rules cannot. It sees the claim, the quote and the
//! record text around it, and answers `{"verdict": "holds" | "fails", "reason": "..."}`.
//! Each answer is memoized in the journal under the sha256 of its request body, so a
//! rerun replays without the endpoint. By default its model must differ from the
//! reasoner's: a model does not grade its own work.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::Error;
use crate::domain::{Claim, sha256_hex};
use crate::http::RetryConfig;
use crate::run::Journal;
use crate::run::evidence::EvidenceRecord;
use crate::run::gates::entailment::{Entailment, Judge, Rule};
use crate::run::reason::llm::Chat;

/// Endpoint settings (`--judge-*` flags or `DOSSIER_JUDGE_*` variables).
#[derive(Clone, Debug)]
pub struct Config {
    /// Base URL up to and including `/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub max_bytes: usize,
    pub retry: RetryConfig,
    /// Whether the judge may be the reasoner's own model (`--judge-same-model`).
    pub same_model_allowed: bool,
}

impl Config {
    /// The settings from flags or environment, when both a URL and a model are given.
    pub fn from_parts(
        base_url: Option<String>,
        model: Option<String>,
        api_key: Option<String>,
        timeout_secs: u64,
        same_model_allowed: bool,
    ) -> Option<Config> {
        Some(Config {
            base_url: base_url?,
            model: model?,
            api_key,
            timeout: Duration::from_secs(timeout_secs),
            max_bytes: 1 << 20,
            retry: RetryConfig::default(),
            same_model_allowed,
        })
    }
}

/// Characters of record text shown on each side of the quote.
const CONTEXT: usize = 1200;

const SYSTEM: &str = "You check one claim of a drug-asset profile against its evidence. The quote is verbatim \
from the record; decide whether the claim is what the quote and the record text around it say: the same \
asset, field, value, unit, arm, dose, time point, population and direction. Answer with one JSON object \
{\"verdict\": \"holds\" | \"fails\", \"reason\": \"one sentence\"}. If the text does not settle it, answer fails.";

#[derive(Serialize, Deserialize)]
struct Memo {
    request_sha256: String,
    content: String,
}

#[derive(Deserialize)]
struct Answer {
    verdict: String,
    #[serde(default)]
    reason: String,
}

pub struct Client {
    model: String,
    chat: Chat,
    journal: Journal,
    rt: tokio::runtime::Handle,
}

impl Client {
    pub fn new(
        cfg: &Config,
        journal: Journal,
        rt: tokio::runtime::Handle,
    ) -> Result<Client, Error> {
        Ok(Client {
            model: cfg.model.clone(),
            chat: Chat::new(
                &cfg.base_url,
                cfg.api_key.clone(),
                cfg.timeout,
                cfg.max_bytes,
                cfg.retry,
            )?,
            journal,
            rt,
        })
    }

    /// The request body for one pair (deterministic: same pair, same body).
    pub fn request(&self, c: &Claim, r: &EvidenceRecord, field: usize, why: &str) -> Value {
        let text = r.field_text(field);
        let quote = c.quote.as_deref().unwrap_or("");
        let at = text.find(quote).unwrap_or(0);
        let floor = |mut i: usize| {
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let ceil = |mut i: usize| {
            while i < text.len() && !text.is_char_boundary(i) {
                i += 1;
            }
            i.min(text.len())
        };
        let from = floor(at.saturating_sub(CONTEXT));
        let to = ceil((at + quote.len() + CONTEXT).min(text.len()));
        let user = json!({
            "claim": {
                "asset": c.asset, "field": c.field, "value": c.value, "unit": c.unit,
                "endpoint": c.endpoint, "population": c.population, "arm": c.arm,
            },
            "quote": quote,
            "record": r.source_id,
            "locator": r.locators.get(field),
            "record_text": &text[from..to],
            "why_the_rules_could_not_decide": why,
        });
        json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": user.to_string()},
            ],
        })
    }

    async fn answer(&self, body: &str) -> Result<String, Error> {
        let hash = sha256_hex(body.as_bytes());
        let key = self.journal.key("judge", body);
        match self.journal.read::<Memo>(&key).await? {
            Some(m) if m.request_sha256 == hash => Ok(m.content),
            Some(_) => Err(crate::run::RunError::ForeignEntry { key }.into()),
            None => {
                let content = self.chat.call(body).await?;
                let memo = Memo {
                    request_sha256: hash,
                    content,
                };
                self.journal.write(&key, &memo).await?;
                Ok(memo.content)
            }
        }
    }
}

/// Reads the judge's answer: `holds`, `fails` (with its reason), or anything else, which
/// leaves the pair undecided and says so.
pub fn read_answer(content: &str, model: &str) -> Entailment {
    let trimmed = content
        .trim()
        .trim_start_matches("```json")
        .trim_start_matches("```")
        .trim_end_matches("```")
        .trim();
    match serde_json::from_str::<Answer>(trimmed) {
        Ok(a) if a.verdict.eq_ignore_ascii_case("holds") => Entailment::Holds,
        Ok(a) if a.verdict.eq_ignore_ascii_case("fails") => Entailment::Fails(
            Rule::Judge,
            format!("{model}: {}", crate::domain::one_line(&a.reason)),
        ),
        Ok(a) => Entailment::Undecided(format!(
            "the judge {model} answered {:?}, neither holds nor fails",
            a.verdict
        )),
        Err(e) => Entailment::Undecided(format!(
            "the judge {model} gave no verdict object: {}",
            crate::domain::one_line(&e.to_string())
        )),
    }
}

impl Judge for Client {
    fn decide(&self, c: &Claim, r: &EvidenceRecord, field: usize, why: &str) -> Entailment {
        let body = self.request(c, r, field, why).to_string();
        let rt = self.rt.clone();
        match rt.block_on(self.answer(&body)) {
            Ok(content) => read_answer(&content, &self.model),
            // not memoized: a rerun asks again
            Err(e) => Entailment::Undecided(format!(
                "the judge {} failed: {}",
                self.model,
                crate::domain::one_line(&e.to_string())
            )),
        }
    }

    fn model(&self) -> &str {
        &self.model
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(
            read_answer(r#"{"verdict":"holds","reason":"ok"}"#, "m"),
            Entailment::Holds
        );
        assert!(matches!(
            read_answer("```json\n{\"verdict\":\"FAILS\",\"reason\":\"other arm\"}\n```", "m"),
            Entailment::Fails(Rule::Judge, r) if r == "m: other arm"
        ));
        assert!(matches!(
            read_answer(r#"{"verdict":"maybe"}"#, "m"),
            Entailment::Undecided(_)
        ));
        assert!(matches!(
            read_answer("I think it holds", "m"),
            Entailment::Undecided(_)
        ));
    }
}
