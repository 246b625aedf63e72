//! The engine worker: a thread that owns the [`EngineLink`], opens it (starting QEMU
//! for `sim`, which takes a while) and runs `go` requests, so the UI never blocks.
//! Requests go in through one channel, [`EngineEvent`]s come back through another.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread;
use std::time::Duration;

use sente_firmware::protocol::{Reply, ReplyKind};

use crate::boards::BoardSpec;
use crate::engine::{EngineError, EngineLink, GoRequest, OnInfo, Spec};
use crate::reply::BestMove;

/// Why a request failed, reduced to what the UI shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The board went away (unplugged, QEMU ended).
    Gone(String),
    /// The board did not answer in time.
    Timeout(String),
    /// The board refused the request or said something unexpected.
    Refused(String),
}

impl Failure {
    /// Whether the board itself is lost (so a reconnect makes sense).
    pub fn board_lost(&self) -> bool {
        matches!(self, Self::Gone(_) | Self::Timeout(_))
    }

    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Self::Gone(m) | Self::Timeout(m) | Self::Refused(m) => m,
        }
    }
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Gone(_) => Self::Gone(e.to_string()),
            EngineError::Timeout(_) => Self::Timeout(e.to_string()),
            EngineError::Refused { .. } | EngineError::Protocol(_) => Self::Refused(e.to_string()),
        }
    }
}

/// What the worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// The link is open: what it is and its clock rate (from `hello`; 0 if unknown).
    Opened {
        /// `describe()` of the board.
        describe: String,
        /// Clock ticks per second.
        hz: u32,
    },
    /// The link could not be opened.
    OpenFailed(String),
    /// What opening the link is doing (building the board firmware: its progress).
    Progress(String),
    /// A completed iteration of search `id`.
    Info {
        /// Request id.
        id: u64,
        /// The iteration's result.
        best: BestMove,
    },
    /// The final answer (or failure) of search `id`.
    Done {
        /// Request id.
        id: u64,
        /// The answer.
        result: Result<BestMove, Failure>,
    },
}

/// A request for the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Id echoed in the events.
    pub id: u64,
    /// The search.
    pub request: GoRequest,
}

/// Handle of a running worker thread. Dropping it ends the thread (after a running
/// search), which closes the link (and ends QEMU).
pub struct Worker {
    jobs: Sender<Job>,
    events: Receiver<EngineEvent>,
}

impl Worker {
    /// Starts a thread that opens `spec` (see [`EngineLink::open`]) and then serves jobs.
    pub fn spawn(spec: &str) -> Self {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (tx, events) = mpsc::channel();
        let spec = spec.to_string();
        let spawned = thread::Builder::new()
            .name(format!("engine {spec}"))
            .spawn({
                let tx = tx.clone();
                move || serve(&spec, &job_rx, &tx)
            });
        if let Err(e) = spawned {
            let _ = tx.send(EngineEvent::OpenFailed(format!(
                "cannot start the engine thread: {e}"
            )));
        }
        Self { jobs, events }
    }

    /// Queues a search; `false` if the thread has ended.
    pub fn ask(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    /// Everything reported since the last call. A thread that ended without saying
    /// why shows up as a [`Failure::Gone`] for `pending`, if a search was pending.
    pub fn poll(&self, pending: Option<u64>) -> Vec<EngineEvent> {
        let mut out = Vec::new();
        loop {
            match self.events.try_recv() {
                Ok(e) => out.push(e),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    if let Some(id) = pending
                        && !out
                            .iter()
                            .any(|e| matches!(e, EngineEvent::Done { id: d, .. } if *d == id))
                    {
                        let failure = Failure::Gone("the engine thread ended".into());
                        out.push(EngineEvent::Done {
                            id,
                            result: Err(failure),
                        });
                    }
                    break;
                }
            }
        }
        out
    }
}

/// How long the TUI waits for a search without a time limit before it calls the
/// board lost (the link's own default is minutes; tic-tac-toe takes a second or two).
pub const SEARCH_TIMEOUT: Duration = Duration::from_secs(60);

/// [`EngineLink::go`] with the TUI's shorter timeout for searches without a time limit.
fn go(
    link: &mut EngineLink,
    request: &GoRequest,
    on_info: &mut dyn FnMut(BestMove),
) -> Result<BestMove, EngineError> {
    let timeout = if request.movetime_ms > 0 {
        request.timeout()
    } else {
        SEARCH_TIMEOUT
    };
    let text = link.request(
        request.request(None).command,
        timeout,
        &mut OnInfo(|b: &BestMove| on_info(b.clone())),
    )?;
    match Reply::parse(&text).map(|r| r.kind) {
        Ok(ReplyKind::BestMove(search)) => Ok(BestMove::from_search(&search)),
        Ok(ReplyKind::Error(code, message)) => Err(EngineError::Refused {
            code,
            message: message.to_string(),
        }),
        _ => Err(EngineError::Protocol(text)),
    }
}

/// The status line while the simulated board's firmware is built.
pub const BUILDING: &str = "building the board firmware (first start only)";

/// Builds the simulated board's firmware if it is missing, reporting cargo's
/// progress (crates compiled, the one compiling). A build started
/// by an earlier worker (the player went back to the menu) is waited for, not
/// repeated.
fn build_for_sim(board: &BoardSpec, events: &Sender<EngineEvent>) -> Result<(), String> {
    if !crate::firmware::missing(board) {
        return Ok(());
    }
    let _ = events.send(EngineEvent::Progress(format!("{BUILDING}…")));
    let mut compiled = 0;
    let mut report = |line: &str| {
        let Some(what) = line
            .strip_prefix("Compiling ")
            .or_else(|| line.strip_prefix("Blocking "))
        else {
            return;
        };
        if line.starts_with("Compiling ") {
            compiled += 1;
        }
        let name = what.split_whitespace().next().unwrap_or(what);
        let _ = events.send(EngineEvent::Progress(format!(
            "{BUILDING}: {compiled} crates compiled, now {name}"
        )));
    };
    crate::firmware::find_reporting(board, &mut report)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn serve(spec: &str, jobs: &Receiver<Job>, events: &Sender<EngineEvent>) {
    if let Spec::Sim(name) = Spec::parse(spec)
        && let Some(board) = crate::boards::find(&name)
        && let Err(e) = build_for_sim(board, events)
    {
        let _ = events.send(EngineEvent::OpenFailed(e));
        return;
    }
    let mut link = match EngineLink::open(spec) {
        Ok(link) => link,
        Err(e) => {
            let _ = events.send(EngineEvent::OpenFailed(e.to_string()));
            return;
        }
    };
    let hz = link.hello().map_or(0, |h| h.hz);
    let _ = events.send(EngineEvent::Opened {
        describe: link.describe(),
        hz,
    });
    while let Ok(job) = jobs.recv() {
        let id = job.id;
        let result = go(&mut link, &job.request, &mut |best| {
            let _ = events.send(EngineEvent::Info { id, best });
        })
        .map_err(Failure::from);
        let lost = matches!(&result, Err(f) if f.board_lost());
        if events.send(EngineEvent::Done { id, result }).is_err() || lost {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn wait_for(worker: &Worker, pending: Option<u64>, n: usize) -> Vec<EngineEvent> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut all = Vec::new();
        while all.len() < n && Instant::now() < deadline {
            all.extend(worker.poll(pending));
            thread::sleep(Duration::from_millis(5));
        }
        all
    }

    #[test]
    fn host_worker_opens_and_answers_with_info() {
        let w = Worker::spawn("host");
        let opened = wait_for(&w, None, 1);
        assert!(
            matches!(&opened[0], EngineEvent::Opened { hz, .. } if *hz > 0),
            "{opened:?}"
        );
        let request = GoRequest {
            game: "ttt".into(),
            position: "xx./oo./...".into(),
            info: true,
            ..GoRequest::default()
        };
        assert!(w.ask(Job { id: 7, request }));
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut done = None;
        let mut infos = 0;
        while done.is_none() && Instant::now() < deadline {
            for e in w.poll(Some(7)) {
                match e {
                    EngineEvent::Info { id: 7, .. } => infos += 1,
                    EngineEvent::Done { id: 7, result } => done = Some(result),
                    other => panic!("unexpected {other:?}"),
                }
            }
        }
        assert_eq!(done.unwrap().unwrap().best, "c3");
        assert!(infos >= 1);
    }

    #[test]
    fn a_refusal_is_reported_and_the_worker_keeps_serving() {
        let w = Worker::spawn("host");
        wait_for(&w, None, 1);
        let bad = GoRequest {
            game: "ttt".into(),
            position: "xxx/ooo/...".into(),
            ..GoRequest::default()
        };
        w.ask(Job {
            id: 1,
            request: bad,
        });
        let good = GoRequest {
            game: "ttt".into(),
            position: ".../.../...".into(),
            ..GoRequest::default()
        };
        w.ask(Job {
            id: 2,
            request: good,
        });
        let events = wait_for(&w, Some(2), 2);
        assert!(
            matches!(
                &events[0],
                EngineEvent::Done {
                    id: 1,
                    result: Err(Failure::Refused(_))
                }
            ),
            "{events:?}"
        );
        assert!(
            matches!(
                &events[1],
                EngineEvent::Done {
                    id: 2,
                    result: Ok(_)
                }
            ),
            "{events:?}"
        );
    }

    #[test]
    fn bad_serial_path_fails_to_open() {
        let w = Worker::spawn("/dev/does-not-exist");
        let events = wait_for(&w, None, 1);
        assert!(
            matches!(&events[0], EngineEvent::OpenFailed(m) if m.contains("does-not-exist")),
            "{events:?}"
        );
    }
}
