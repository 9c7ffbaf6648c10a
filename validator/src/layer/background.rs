//! Checking threads for report mode ([`super::ContractLayer::check_in_background`]): the
//! response goes back to the client at once, and its exchange is judged on a thread of the
//! layer's own, off the server's threads.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};

use super::LayerStats;

/// A check to run.
pub(super) type Job = Box<dyn FnOnce() + Send>;

/// How many exchanges may wait for a checking thread per thread, before the server's own
/// thread checks the next one itself: a bound on memory that loses nothing.
const QUEUE_PER_THREAD: usize = 1024;

/// The checking threads and their queue.
#[derive(Clone)]
pub(super) struct Background {
    sender: SyncSender<Job>,
}

impl Background {
    /// Starts `threads` checking threads (at least one). They stop when the last layer and
    /// service holding this queue are dropped and the queue is empty.
    pub(super) fn start(threads: usize) -> std::io::Result<Self> {
        let threads = threads.max(1);
        let (sender, receiver) = mpsc::sync_channel::<Job>(threads * QUEUE_PER_THREAD);
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..threads {
            let receiver = receiver.clone();
            std::thread::Builder::new()
                .name(format!("specval-check-{index}"))
                .spawn(move || work(&receiver))?;
        }
        Ok(Background { sender })
    }

    /// Runs `job` on a checking thread, counted in [`LayerStats::pending`] until it is done;
    /// when the queue is full, runs it here (the server slows down rather than memory grows
    /// or an exchange goes unchecked).
    pub(super) fn run(&self, stats: &Arc<LayerStats>, job: Job) {
        stats.pending.fetch_add(1, Ordering::AcqRel);
        let done = stats.clone();
        let counted: Job = Box::new(move || {
            // A sink that panics must not leave the exchange pending for ever or stop a
            // checking thread.
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                tracing::error!(target: "specval::layer", "a finding sink panicked");
            }
            done.pending.fetch_sub(1, Ordering::AcqRel);
        });
        match self.sender.try_send(counted) {
            Ok(()) => {}
            Err(TrySendError::Full(job) | TrySendError::Disconnected(job)) => job(),
        }
    }
}

fn work(receiver: &Mutex<Receiver<Job>>) {
    loop {
        // The lock is held only while taking one job, not while running it.
        let next = receiver
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}
