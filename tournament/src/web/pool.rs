//! A fixed pool of worker threads with a bounded queue: where requests
//! are answered (an agent thinking, a bot over its pipes, a folder read),
//! away from the thread that holds the connections.
//!
//! Every thread is made when the server starts, so a limit on threads
//! shows as an error then, never as a panic mid-game; a full queue is
//! refused at once ([`Pool::submit`] gives the job back), never waited on.

use files::error::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// A unit of work.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// The pool: `workers` threads taking jobs from a queue of `queue`.
pub struct Pool {
    sender: SyncSender<Job>,
}

impl Pool {
    /// Start `workers` threads (at least one) and a queue of `queue` jobs.
    ///
    /// # Errors
    /// A thread cannot be made (a limit on threads or memory).
    pub fn new(workers: usize, queue: usize) -> Result<Pool> {
        let (sender, receiver) = sync_channel::<Job>(queue);
        let receiver = Arc::new(Mutex::new(receiver));
        for i in 0..workers.max(1) {
            let receiver = receiver.clone();
            std::thread::Builder::new()
                .name(format!("web-worker-{i}"))
                .spawn(move || work(&receiver))
                .map_err(|e| {
                    Error::Invalid(format!(
                        "cannot start the server's worker thread {} of {workers}: {e}",
                        i + 1
                    ))
                })?;
        }
        Ok(Pool { sender })
    }

    /// Queue `job`; `Err(job)` when the queue is full (or the pool gone).
    pub fn submit(&self, job: Job) -> std::result::Result<(), Job> {
        self.sender.try_send(job).map_err(|e| match e {
            TrySendError::Full(job) | TrySendError::Disconnected(job) => job,
        })
    }
}

/// A worker: jobs until the pool is dropped. A job that panics is its
/// own loss (its requester sees its answer channel closed); the worker
/// goes on.
fn work(receiver: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
            match receiver.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        let _ = catch_unwind(AssertUnwindSafe(job));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn a_full_queue_gives_the_job_back_and_a_panic_keeps_the_worker() {
        let pool = Pool::new(1, 1).unwrap();
        let (hold, held) = channel::<()>();
        let (started, wait_started) = channel::<()>();
        pool.submit(Box::new(move || {
            started.send(()).unwrap();
            let _ = held.recv();
        }))
        .unwrap_or_else(|_| panic!("the first job was refused"));
        wait_started.recv().unwrap();
        // The worker is busy: one job fits in the queue, the next does not.
        assert!(pool
            .submit(Box::new(|| panic!("a job that panics")))
            .is_ok());
        assert!(
            pool.submit(Box::new(|| ())).is_err(),
            "a full queue took a job"
        );
        drop(hold);
        // After the panic the same worker still answers.
        let (done, wait_done) = channel::<u8>();
        let mut job: Job = Box::new(move || done.send(7).unwrap());
        for _ in 0..200 {
            match pool.submit(job) {
                Ok(()) => break,
                Err(back) => {
                    job = back;
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
        assert_eq!(wait_done.recv_timeout(Duration::from_secs(5)), Ok(7));
    }
}
