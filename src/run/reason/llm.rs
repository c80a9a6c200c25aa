//! The LLM reasoner: any OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp
//! server, Ollama, hosted APIs). The prompt holds only the asset's structured facts (the
//! extractive claims) and BM25-selected passages of its bundle, within a token budget;
//! the answer is a JSON object of claims that go through the same gates as every other
//! claim. Each response is memoized in the run's journal under the sha256 of its request
//! body, so a rerun replays without the endpoint. The POST goes through the shared HTTP
//! policy (`crate::http`); this file must not keep a retry loop or body reader of its own.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Input, Output, claim_id};
use crate::Error;
use crate::domain::{Claim, Label, sha256_hex};
use crate::http::{
    Attempt, HttpError, Retrier, RetryConfig, Timeouts, is_retryable_status, read_capped,
    retry_after, status_error,
};
use crate::run::Journal;
use crate::run::distill::bm25::{self, Bm25};
use crate::run::distill::spans;
use crate::run::profile::FIELDS;

/// Endpoint settings (flags or `DOSSIER_LLM_*` environment variables).
#[derive(Clone, Debug)]
pub struct Config {
    /// Base URL up to and including `/v1` (e.g. `http://127.0.0.1:8000/v1`).
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// Prompt budget in cl100k_base tokens (facts plus passages).
    pub budget: usize,
    /// One attempt's timeout (connect within 10 s of it at most).
    pub timeout: Duration,
    /// Cap on a response body; a larger one fails at once.
    pub max_bytes: usize,
    /// Retries of timeouts, connection errors, malformed JSON, 429 and 5xx; other
    /// statuses fail at once. `RetryConfig::default()`: 3 retries, backoff from 200 ms
    /// doubling to 10 s with full jitter, Retry-After honoured up to 60 s.
    pub retry: RetryConfig,
}

pub struct Client {
    cfg: Config,
    chat: Chat,
    journal: Journal,
}

/// One OpenAI-compatible chat-completions endpoint behind the shared HTTP policy: the
/// reasoner and the entailment judge both talk through it.
pub struct Chat {
    base_url: String,
    api_key: Option<String>,
    max_bytes: usize,
    http: reqwest::Client,
    retry: Retrier,
}

/// A model's answer as journaled: the request's hash, so an entry can be checked
/// against the request that finds it, and the answer's text.
#[derive(Serialize, Deserialize)]
struct Memo {
    request_sha256: String,
    content: String,
}

/// The prompt's instructions: what to return and the rules the gates enforce.
const SYSTEM: &str = "You fill cells of a drug-asset profile from the evidence given and nothing else. \
Answer with one JSON object {\"claims\": [...]}. Each claim: field (one of the listed fields), value, \
unit, endpoint, population, arm, label (fact|derived|inference|assumption|modeled|hypothesis), \
source (the source URL shown with the evidence), quote (copied character for character from one \
passage or fact, containing every number of the value), locator (the locator shown with it), \
id (your own, optional), inputs (claim ids, for derived, inference and modeled claims) and formula. Valuation fields are never facts. \
Claims that fail a check are dropped; do not guess.";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    claims: Vec<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LlmClaim {
    /// The model's own id for the claim, so its derived and modeled claims can name inputs.
    #[serde(default)]
    id: Option<String>,
    field: String,
    value: Value,
    label: Label,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    endpoint: Option<String>,
    #[serde(default)]
    population: Option<String>,
    #[serde(default)]
    arm: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    quote: Option<String>,
    #[serde(default)]
    locator: Option<String>,
    #[serde(default)]
    inputs: Vec<String>,
    #[serde(default)]
    formula: Option<String>,
}

/// Field name given to an answer item that is not a claim, so it is dropped and recorded.
pub const MALFORMED_FIELD: &str = "llm.malformed";

impl Client {
    pub fn new(cfg: Config, journal: Journal) -> Result<Client, Error> {
        let chat = Chat::new(
            &cfg.base_url,
            cfg.api_key.clone(),
            cfg.timeout,
            cfg.max_bytes,
            cfg.retry,
        )?;
        Ok(Client { cfg, chat, journal })
    }

    /// The prompt budget (part of what determines a run's output).
    pub fn budget(&self) -> usize {
        self.cfg.budget
    }

    /// The request body for one asset (deterministic), and the token counts of the prompt
    /// and of the asset's whole bundle text.
    pub fn request(&self, input: &Input<'_>, out: &Output) -> (Value, usize, usize) {
        prompt(input, out, &self.cfg.model, self.cfg.budget)
    }

    /// The asset's LLM claims: from the journal when this request was answered before,
    /// otherwise from the endpoint (then journaled). Runs on a blocking thread.
    pub fn claims(
        &self,
        input: &Input<'_>,
        out: &Output,
        rt: &tokio::runtime::Handle,
    ) -> Result<(Vec<Claim>, usize, usize), Error> {
        let (body, prompt_tokens, bundle_tokens) = self.request(input, out);
        let text = body.to_string();
        let hash = sha256_hex(text.as_bytes());
        let key = self.journal.key("llm", &text);
        let content = rt.block_on(async {
            match self.journal.read::<Memo>(&key).await? {
                Some(m) if m.request_sha256 == hash => Ok::<_, Error>(m.content),
                Some(_) => Err(crate::run::RunError::ForeignEntry { key: key.clone() }.into()),
                None => {
                    let content = self.chat.call(&text).await?;
                    let memo = Memo {
                        request_sha256: hash.clone(),
                        content,
                    };
                    self.journal.write(&key, &memo).await?;
                    Ok(memo.content)
                }
            }
        })?;
        Ok((
            parse_answer(&content, input.asset.id.as_str()),
            prompt_tokens,
            bundle_tokens,
        ))
    }
}

impl Chat {
    pub fn new(
        base_url: &str,
        api_key: Option<String>,
        timeout: Duration,
        max_bytes: usize,
        retry: RetryConfig,
    ) -> Result<Chat, Error> {
        let http = Timeouts::new(timeout).client(None).map_err(Error::Llm)?;
        Ok(Chat {
            base_url: base_url.to_string(),
            api_key,
            max_bytes,
            http,
            retry: Retrier::new(retry),
        })
    }

    /// POSTs the request under the shared retry policy (`Config::retry`).
    pub async fn call(&self, body: &str) -> Result<String, Error> {
        let url = format!("{}/chat/completions", self.base_url.trim_end_matches('/'));
        self.retry
            .run(&url, |_| self.attempt(&url, body))
            .await
            .map_err(Error::Llm)
    }

    /// One POST: the answer's content, a retry (transport errors, 429 and 5xx with their
    /// Retry-After, a body that is not JSON) or a failure (other statuses, a body over
    /// the cap, JSON without `choices[0].message.content`).
    async fn attempt(&self, url: &str, body: &str) -> Attempt<String> {
        let mut req = self
            .http
            .post(url)
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(k) = &self.api_key {
            req = req.bearer_auth(k);
        }
        let resp = match req.send().await {
            Ok(r) => r,
            Err(source) => {
                let url = url.to_string();
                return Attempt::failed(HttpError::Transport { url, source });
            }
        };
        let status = resp.status();
        if is_retryable_status(status.as_u16()) {
            let hint = retry_after::from_headers(resp.headers(), self.retry.clock().now());
            let error = status_error(resp, url).await;
            return Attempt::Retry {
                error,
                retry_after: hint,
            };
        }
        if !status.is_success() {
            return Attempt::Fail(status_error(resp, url).await);
        }
        let bytes = match read_capped(resp, url, self.max_bytes as u64).await {
            Ok(b) => b,
            Err(e) => return Attempt::failed(e),
        };
        let malformed = |source| HttpError::Malformed {
            url: url.to_string(),
            source,
        };
        let v: Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => return Attempt::failed(malformed(e.into())),
        };
        match v
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
        {
            Some(content) => Attempt::Done(content.to_string()),
            None => Attempt::Fail(malformed("no choices[0].message.content".into())),
        }
    }
}

/// Turns the model's answer into claims. Items that are not claims become claims of the
/// field `llm.malformed`, which the schema check rejects, so they are recorded.
pub fn parse_answer(content: &str, asset: &str) -> Vec<Claim> {
    let malformed = |raw: String, why: String| {
        let mut c = Claim {
            id: String::new(),
            asset: asset.to_string(),
            field: MALFORMED_FIELD.into(),
            value: raw.chars().take(2000).collect(),
            label: Label::Hypothesis,
            source: None,
            quote: None,
            locator: None,
            unit: None,
            endpoint: None,
            population: None,
            arm: None,
            inputs: vec![],
            formula: Some(why),
        };
        c.id = claim_id("l", &c);
        c
    };
    let answer: Answer = match serde_json::from_str(content) {
        Ok(a) => a,
        Err(e) => {
            return vec![malformed(
                content.to_string(),
                format!("not a claims object: {e}"),
            )];
        }
    };
    answer
        .claims
        .into_iter()
        .map(
            |item| match serde_json::from_value::<LlmClaim>(item.clone()) {
                Ok(x) => {
                    let value = match x.value {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    let mut c = Claim {
                        id: String::new(),
                        asset: asset.to_string(),
                        field: x.field,
                        value,
                        label: x.label,
                        source: x.source,
                        quote: x.quote,
                        locator: x.locator,
                        unit: x.unit,
                        endpoint: x.endpoint,
                        population: x.population,
                        arm: x.arm,
                        inputs: x.inputs.iter().map(|i| local_id(i)).collect(),
                        formula: x.formula,
                    };
                    c.id = match &x.id {
                        Some(id) => local_id(id),
                        None => claim_id("l", &c),
                    };
                    c
                }
                Err(e) => malformed(item.to_string(), format!("not a claim: {e}")),
            },
        )
        .collect()
}

/// A model-given id in the run's namespace: ids of the structured facts (`x-...`) and
/// of earlier LLM claims (`l-...`) stay, anything else gets `l-` and loses characters
/// outside `[A-Za-z0-9_-]`.
fn local_id(id: &str) -> String {
    if id.starts_with("x-") || id.starts_with("l-") {
        return id.chars().take(64).collect();
    }
    let clean: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(60)
        .collect();
    format!("l-{clean}")
}

/// Builds the request body: instructions, the fields, the structured facts (extractive
/// claims, best first until half the budget) and the best BM25 passages for the rest.
pub fn prompt(
    input: &Input<'_>,
    out: &Output,
    model: &str,
    budget: usize,
) -> (Value, usize, usize) {
    let a = input.asset;
    let mut user = format!(
        "Asset {} ({}). Indication: {}.\n\nFields:\n",
        a.id,
        a.names.join(", "),
        a.indication.as_deref().unwrap_or("not given")
    );
    for f in FIELDS {
        user.push_str(&format!("- {}: {}\n", f.name, f.doc));
    }
    let mut used = bm25::count_tokens(SYSTEM) + bm25::count_tokens(&user);
    user.push_str("\nStructured facts (claim id | field | endpoint | population | arm | value | unit | source | locator):\n");
    let facts_budget = budget / 2;
    let mut facts_used = 0;
    for c in &out.claims {
        let line = format!(
            "{} | {} | {} | {} | {} | {} | {} | {} | {}\n",
            c.id,
            c.field,
            c.endpoint.as_deref().unwrap_or(""),
            c.population.as_deref().unwrap_or(""),
            c.arm.as_deref().unwrap_or(""),
            c.value,
            c.unit.as_deref().unwrap_or(""),
            c.source.as_deref().unwrap_or(""),
            c.locator.as_deref().unwrap_or("")
        );
        let t = bm25::count_tokens(&line);
        if facts_used + t > facts_budget {
            break;
        }
        facts_used += t;
        user.push_str(&line);
    }
    used += facts_used;
    let subjects: Vec<_> = input.rows.iter().filter(|r| r.role == "subject").collect();
    let all: Vec<spans::Span> = subjects
        .iter()
        .flat_map(|r| spans::spans_of(&r.source_id, &r.url, &r.fields))
        .collect();
    let full: String = input
        .rows
        .iter()
        .flat_map(|r| r.fields.iter().map(|x| x.2.as_str()))
        .collect::<Vec<_>>()
        .join("\n");
    let bundle_tokens = bm25::count_tokens(&full);
    let query = format!(
        "{} {} efficacy primary endpoint results response rate hazard ratio adverse reactions serious warning indicated mechanism",
        a.names.join(" "),
        a.indication.as_deref().unwrap_or("")
    );
    let index = Bm25::build(all.iter().map(|s| s.text.as_str()));
    let picks = bm25::distill(&index.search(&query), &all, budget.saturating_sub(used));
    user.push_str("\nPassages (source | locator | text):\n");
    for p in &picks {
        let s = &all[p.span];
        user.push_str(&format!("{} | {} | {}\n", s.url, s.locator, s.text));
        used += p.tokens;
    }
    let body = json!({
        "model": model,
        "temperature": 0,
        "response_format": {"type": "json_object"},
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": user},
        ],
    });
    (body, used, bundle_tokens)
}
