//! The interactive `dossier sql` prompt: line editing and history (rustyline), statements
//! that run on until a `;`, and backslash commands to list tables and columns. The bundle
//! tables (`records`, `text_fields`, `sources`) are loaded the first time a statement
//! names them.

use std::time::Instant;

use datafusion::prelude::SessionContext;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

use crate::Error;
use crate::access::AccessError;
use crate::access::sql::{self, Format};
use crate::lake::Lake;

const HELP: &str = "\
Statements end with `;` and may span lines. Commands:
  \\d            tables and views, with their kind and column count
  \\d NAME       the columns of one table or view
  \\format F     table, csv or json output
  \\timing       show or hide each statement's time
  \\o FILE       write the results to FILE (outside the lake); \\o alone: back to the screen
  \\run          the run the views show (profile, profile_conflicts, efficacy, status_counts)
  \\r            drop the unfinished statement (commands in the middle of one keep it)
  \\q            quit (or Ctrl-D)
  \\?            this help";

/// What the prompt does with one complete input.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Sql(String),
    Describe(Option<String>),
    Format(Option<Format>),
    /// `\o FILE` (results to a file) or `\o` (back to the screen).
    Output(Option<String>),
    Timing,
    Run,
    Help,
    Quit,
    /// `\r`: drop the unfinished statement.
    Reset,
    Unknown(String),
}

/// Reads a backslash command (the whole line, trimmed).
pub fn command(line: &str) -> Input {
    let mut words = line.split_whitespace();
    let head = words.next().unwrap_or("");
    let arg = words.next().map(str::to_string);
    match head {
        "\\d" | "\\dt" => Input::Describe(arg),
        "\\format" => Input::Format(arg.and_then(|a| match a.as_str() {
            "table" => Some(Format::Table),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        })),
        "\\timing" => Input::Timing,
        "\\o" | "\\out" => {
            let rest = line[head.len()..].trim();
            Input::Output((!rest.is_empty()).then(|| rest.to_string()))
        }
        "\\run" => Input::Run,
        "\\?" | "\\h" | "\\help" => Input::Help,
        "\\q" | "\\quit" => Input::Quit,
        "\\r" | "\\reset" => Input::Reset,
        _ => Input::Unknown(line.to_string()),
    }
}

/// Collects typed lines into inputs: a backslash line on an empty buffer is a command;
/// other lines gather until the text completes a statement.
#[derive(Default)]
pub struct Buffer {
    text: String,
}

impl Buffer {
    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty()
    }

    pub fn push(&mut self, line: &str) -> Option<Input> {
        // a backslash line is a command, also in the middle of a statement (which it
        // leaves as it was), but not inside an open quote or comment
        if line.trim_start().starts_with('\\')
            && (self.is_empty() || !sql::open_literal(&self.text))
        {
            if self.is_empty() {
                self.text.clear();
            }
            return Some(command(line.trim()));
        }
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(line);
        if sql::complete(&self.text) {
            Some(Input::Sql(std::mem::take(&mut self.text)))
        } else {
            None
        }
    }
}

struct Session<'a> {
    lake: &'a Lake,
    snapshot: &'a str,
    ctx: SessionContext,
    bundles: bool,
    format: Format,
    timing: bool,
    run: Option<String>,
    guard: sql::Guard,
    sink: sql::Sink,
}

impl Session<'_> {
    async fn handle(&mut self, input: Input) -> Result<bool, Error> {
        match input {
            Input::Quit => return Ok(false),
            Input::Reset => {}
            Input::Help => println!("{HELP}"),
            Input::Unknown(c) => println!("unknown command {c} (\\? lists them)"),
            Input::Timing => {
                self.timing = !self.timing;
                println!("timing {}", if self.timing { "on" } else { "off" });
            }
            Input::Format(None) => println!("\\format takes table, csv or json"),
            Input::Format(Some(f)) => self.format = f,
            Input::Output(path) => {
                self.sink = sql::Sink::open(self.lake, path.as_deref().map(std::path::Path::new))?;
                match path {
                    Some(p) => println!("results go to {p}"),
                    None => println!("results go to the screen"),
                }
            }
            Input::Run => match &self.run {
                Some(r) => println!("views show run {r}"),
                None => println!("no run in this lake yet: the views are not defined"),
            },
            Input::Describe(name) => {
                // the bundle tables are part of the listing, though loaded on first use
                if !self.bundles {
                    sql::register_bundles(&self.ctx, self.lake, self.snapshot).await?;
                    self.bundles = true;
                }
                for (n, kind, cols) in sql::describe(&self.ctx, name.as_deref()).await? {
                    if name.is_some() {
                        println!("{kind} {n}");
                        for (c, t) in cols {
                            println!("  {c:<24} {t}");
                        }
                    } else {
                        println!("{n:<24} {kind:<6} {} columns", cols.len());
                    }
                }
            }
            Input::Sql(text) => {
                if !self.bundles && sql::needs_bundles(&text) {
                    sql::register_bundles(&self.ctx, self.lake, self.snapshot).await?;
                    self.bundles = true;
                }
                for stmt in sql::parse(&text)? {
                    let start = Instant::now();
                    let batches = sql::execute(&self.ctx, stmt, self.guard).await?;
                    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
                    if batches.iter().any(|b| b.num_columns() > 0) {
                        let mut text = sql::render(&batches, self.format)?;
                        if self.format == Format::Table {
                            text.push('\n');
                        }
                        self.sink.write(&text)?;
                    }
                    let took = if self.timing {
                        format!(", {:.1} ms", start.elapsed().as_secs_f64() * 1e3)
                    } else {
                        String::new()
                    };
                    println!("({rows} row{}{took})", if rows == 1 { "" } else { "s" });
                }
            }
        }
        Ok(true)
    }
}

/// Runs the prompt until `\q` or end of input. Errors in a statement are printed and the
/// prompt goes on; only a broken terminal ends it with an error.
pub async fn interactive(
    lake: &Lake,
    snapshot: &str,
    run: Option<&str>,
    format: Format,
    guard: sql::Guard,
    sink: sql::Sink,
) -> Result<(), Error> {
    let ctx = sql::context(lake, snapshot, false, run).await?;
    let current = sql::pick_run(&sql::runs(lake).await?, run)?.map(|r| r.run_id.clone());
    let mut session = Session {
        lake,
        snapshot,
        ctx,
        bundles: false,
        format,
        timing: false,
        run: current,
        guard,
        sink,
    };
    let mut editor = DefaultEditor::new().map_err(AccessError::Terminal)?;
    let history = crate::config::history_path();
    if let Some(h) = &history {
        // a missing history file is the first session, not an error
        let _ = editor.load_history(h);
    }
    println!(
        "dossier sql on {}: statements end with `;`, \\d lists tables, \\? helps, \\q quits.{}",
        lake.url,
        session
            .run
            .as_ref()
            .map(|r| format!(" Views show run {r}."))
            .unwrap_or_default()
    );
    let mut buffer = Buffer::default();
    loop {
        let prompt = if buffer.is_empty() {
            "dossier> "
        } else {
            "     ...> "
        };
        let line = match tokio::task::block_in_place(|| editor.readline(prompt)) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => {
                buffer = Buffer::default();
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(AccessError::Terminal(e).into()),
        };
        let Some(input) = buffer.push(&line) else {
            continue;
        };
        if input == Input::Reset {
            println!(
                "{}",
                if buffer.is_empty() {
                    "no unfinished statement to drop"
                } else {
                    "unfinished statement dropped"
                }
            );
            buffer = Buffer::default();
            continue;
        }
        let entry = match &input {
            Input::Sql(text) => text.clone(),
            _ => line.trim().to_string(),
        };
        let _ = editor.add_history_entry(entry.as_str());
        let command = !matches!(input, Input::Sql(_));
        match session.handle(input).await {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => println!("error: {}", crate::error::chain(&e)),
        }
        if command && !buffer.is_empty() {
            println!("(the unfinished statement is kept: end it with `;`, or \\r drops it)");
        }
    }
    if let Some(h) = &history
        && let Err(e) = editor.save_history(h)
    {
        eprintln!("could not save history to {}: {e}", h.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_gather_until_a_semicolon_outside_quotes_and_comments() {
        let mut b = Buffer::default();
        assert_eq!(b.push("SELECT 'a;b'"), None);
        assert_eq!(b.push("-- not the end;"), None);
        assert_eq!(b.push("FROM profile /* ; */"), None);
        assert_eq!(
            b.push("WHERE x = 1;"),
            Some(Input::Sql(
                "SELECT 'a;b'\n-- not the end;\nFROM profile /* ; */\nWHERE x = 1;".into()
            ))
        );
        assert!(b.is_empty());
        // an unterminated string keeps the statement open past a `;`
        assert_eq!(b.push("SELECT 'it;"), None);
        assert!(matches!(b.push("s';"), Some(Input::Sql(_))));
    }

    #[test]
    fn backslash_commands_only_start_an_empty_buffer() {
        let mut b = Buffer::default();
        assert_eq!(
            b.push("  \\d profile"),
            Some(Input::Describe(Some("profile".into())))
        );
        assert_eq!(
            b.push("\\format csv"),
            Some(Input::Format(Some(Format::Csv)))
        );
        assert_eq!(b.push("\\format xml"), Some(Input::Format(None)));
        assert_eq!(
            b.push("\\o  my results.csv "),
            Some(Input::Output(Some("my results.csv".into())))
        );
        assert_eq!(b.push("\\o"), Some(Input::Output(None)));
        assert_eq!(b.push("\\q"), Some(Input::Quit));
        assert_eq!(b.push("\\nope"), Some(Input::Unknown("\\nope".into())));
        assert_eq!(b.push("SELECT"), None);
        // a command in the middle of a statement runs and leaves the statement as it was
        assert_eq!(b.push("\\d"), Some(Input::Describe(None)));
        assert_eq!(b.push("\\q"), Some(Input::Quit));
        assert!(!b.is_empty());
        // a backslash that does not start the line is text
        assert!(matches!(b.push("'\\d';"), Some(Input::Sql(t)) if t == "SELECT\n'\\d';"));
        // inside an open string literal a backslash line is text too
        assert_eq!(b.push("SELECT 'a"), None);
        assert_eq!(b.push("\\q"), None);
        assert!(matches!(b.push("';"), Some(Input::Sql(t)) if t == "SELECT 'a\n\\q\n';"));
        assert_eq!(b.push("\\r"), Some(Input::Reset));
    }
}
