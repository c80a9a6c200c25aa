//! What a retry takes from the outside world: the time (to sleep between attempts and
//! to read a Retry-After date) and randomness (for jitter). Both are traits so tests
//! can pass a manual clock that never sleeps and a seeded or fixed jitter source. This
//! file holds no policy: it does not decide how long to wait.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use futures::future::BoxFuture;

/// Wall-clock time and sleeping.
pub trait Clock: Send + Sync {
    /// Now, as wall-clock time (Retry-After dates are wall-clock).
    fn now(&self) -> SystemTime;
    /// Waits `d`.
    fn sleep(&self, d: Duration) -> BoxFuture<'static, ()>;
}

/// The real clock: `SystemTime::now` and tokio's timer.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn sleep(&self, d: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(d))
    }
}

/// A source of jitter draws.
pub trait Jitter: Send {
    /// A draw in `[0, 1)`.
    fn fraction(&mut self) -> f64;
}

/// `fastrand`'s generator: seeded from the OS by default, or from a fixed seed in tests.
impl Jitter for fastrand::Rng {
    fn fraction(&mut self) -> f64 {
        self.f64()
    }
}

/// A clock for tests: `sleep` returns at once, records the wait and moves `now` on.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<SystemTime>,
    slept: Mutex<Vec<Duration>>,
}

impl ManualClock {
    /// A clock that reads `start` until something sleeps.
    pub fn at(start: SystemTime) -> ManualClock {
        ManualClock {
            now: Mutex::new(start),
            slept: Mutex::new(Vec::new()),
        }
    }

    /// Every wait asked for so far, in order.
    pub fn slept(&self) -> Vec<Duration> {
        self.slept.lock().expect("clock lock").clone()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().expect("clock lock")
    }

    fn sleep(&self, d: Duration) -> BoxFuture<'static, ()> {
        *self.now.lock().expect("clock lock") += d;
        self.slept.lock().expect("clock lock").push(d);
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manual_clock_advances_by_what_was_slept() {
        let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let c = ManualClock::at(start);
        futures::executor::block_on(c.sleep(Duration::from_millis(1500)));
        futures::executor::block_on(c.sleep(Duration::from_millis(500)));
        assert_eq!(c.now(), start + Duration::from_secs(2));
        assert_eq!(
            c.slept(),
            [Duration::from_millis(1500), Duration::from_millis(500)]
        );
    }

    #[test]
    fn seeded_draws_repeat_and_stay_in_the_unit_interval() {
        let draws = |seed| {
            let mut r = fastrand::Rng::with_seed(seed);
            (0..1000).map(|_| r.fraction()).collect::<Vec<f64>>()
        };
        let a = draws(7);
        assert_eq!(a, draws(7));
        assert_ne!(a, draws(8));
        assert!(a.iter().all(|f| (0.0..1.0).contains(f)));
    }
}
