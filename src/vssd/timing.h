/* timing.h - the virtual SSD's clock (issue 15): when each NAND operation
 * and each host command completes. Dies and channels are resources an
 * operation occupies from its start to its end, the host link is one more
 * shared by reads and writes, and writes are acknowledged from a write
 * buffer that NAND programs drain; so parallelism, queueing, read-behind-
 * program interference and the link ceiling emerge from the schedule
 * rather than being programmed. Times are nanoseconds on the caller's
 * clock (the runner's CLOCK_MONOTONIC); the model keeps no other time and
 * never sleeps. docs/vssd.md gives the equations. */
#ifndef DRIVEBENCH_VSSD_TIMING_H
#define DRIVEBENCH_VSSD_TIMING_H

#include <stdbool.h>
#include <stdint.h>

enum nand_op_kind { NAND_READ, NAND_PROGRAM, NAND_ERASE };
enum nand_mode { NAND_NATIVE, NAND_SLC, NAND_MODES };

struct timing_params {
	uint32_t channels, dies_per_channel;
	/* planes per die that read on their own (independent plane read): a
	 * read holds its block's plane (block % planes), a program or an
	 * erase the whole die; 0 or 1 = the die is one unit */
	uint32_t planes;
	uint32_t page_bytes;               /* native page */
	/* array times per mode: read (tR), program (tPROG) of one page */
	uint64_t read_ns[NAND_MODES], program_ns[NAND_MODES];
	uint64_t erase_ns;                 /* tBERS of one block */
	/* each program takes tPROG times (1 + u * program_jitter), u spread
	 * evenly over [-1, 1) (a fixed sequence): real tPROG varies with the
	 * wordline and the cells, which keeps the dies' programs from
	 * running in lock step; 0 = every program takes tPROG */
	double program_jitter;
	double channel_bytes_per_ns;       /* NAND bus of one channel (1.2 = 1200 MB/s) */
	double link_bytes_per_ns;          /* host link (PCIe gen x lanes), both ways */
	uint64_t command_ns;               /* controller latency per host command */
	/* read retry: each 4 KiB of data a read takes from a page fails its
	 * first decode with this probability (a fixed sequence), and the
	 * read then holds its plane read_retry_ns longer (re-reads at other
	 * read voltages, soft decode); 0 = no retries */
	double read_retry_rate;
	uint64_t read_retry_ns;
	/* a read's data path after the die (ECC decode, DMA set-up): a
	 * latency each read adds in parallel engines, not a die's time, so
	 * reads colliding on a plane wait only for tR (issue 29.6) */
	uint64_t decode_ns;
	double commands_per_ns;            /* the controller's command rate (0.003 = 3M/s) */
	uint64_t write_buffer_bytes;       /* writes acknowledged from here */
	/* program/erase suspend: a host read on a die busy with other work
	 * starts this long after it is ready; 0 = no suspend (it queues) */
	uint64_t suspend_ns;
	/* an erase runs in this many slices between the die's next programs
	 * (erase suspend for programs: the die's time is the same, but no
	 * program waits a whole erase); 0 or 1 = the erase runs whole */
	uint32_t erase_slices;
	/* the controller takes writes into its buffer one at a time, this
	 * long each (its DRAM and power-loss path), beginning when a write's
	 * command starts, beside its data's transfer; 0 = no such stage */
	uint64_t write_ack_ns;
	/* ... and each partial write (one that leaves part of a mapping
	 * unit, merged in the buffer) the drive holds (submitted, not yet
	 * acknowledged) when a partial write reaches that stage adds this to
	 * its time there: a merge path that slows as its list of partial
	 * units grows (the P5430's 4K random write, 152.5K at 8 in flight,
	 * 74.2K at 256; the P5336's 64K writes at 256 in flight keep their
	 * speed while its 4K ones drop, issue 29.7); 0 = no such growth */
	uint64_t write_ack_queued_ns;

	/* each submission queue (one per job) takes its commands one at a
	 * time, one every queue_ns: the host's submitting thread and the
	 * controller's handling of that queue, which the reviews cannot tell
	 * apart (one job, one thread, one queue). It bounds a queue's rate,
	 * not a command's latency (command_ns is that): a command waits
	 * only when its queue is busy. Queues run in parallel; 0 = no such
	 * stage (issue 29.4) */
	uint64_t queue_ns;
	/* each submission queue moves its writes' data in at most this fast
	 * (the data streams in as it crosses the link, so a lone write pays
	 * only what the queue is slower than the link): one job's write
	 * ceiling where several jobs reach more (issue 29.10: the PS1030's
	 * one-job 128K write). Queues run in parallel; 0 = no such limit */
	double queue_write_bytes_per_ns;
	/* the write buffer takes the data of every write, one after
	 * another, at most this fast (overlapping the link, as above): the
	 * drive's write ceiling whatever its queues (issue 29.10: the
	 * PS1030's writes never pass 7.6 GB/s in its review, from one job or
	 * several); 0 = no such limit */
	double write_intake_bytes_per_ns;
};

/* Submission queues the clock tells apart: queue q is q % this (as the
 * kernel maps more CPUs than a drive has queues onto shared ones). */
#define TIMING_QUEUES 256u

struct timing;

/* Checks the parameters (no zero counts, sizes or rates; no more than
 * 65536 dies) and makes a model with every resource idle. NULL with the
 * reason in err_msg(). */
struct timing *timing_create(const struct timing_params *p);
void timing_destroy(struct timing *t);

/* One NAND operation on die, ready to start at ready_ns (its data in the
 * controller: for a program, after the host transfer): returns when it is
 * done. A read holds its block's plane for tR (once the die's programs
 * and erases before it are done), then its channel to move bytes out
 * of the page register (only what was asked, as NAND's random data out
 * allows; 0 = the whole page); a program holds the channel for the page,
 * then the die for tPROG; an erase holds the die. */
uint64_t timing_nand_op(struct timing *t, enum nand_op_kind kind, enum nand_mode mode,
			uint32_t die, uint32_t block, uint32_t bytes, uint64_t ready_ns);

/* A host read (a command's, or a read-modify-write's) of die, as
 * timing_nand_op's read, but with suspend_ns set it does not queue behind
 * the die's programs, erases and GC reads: it waits only for the host
 * reads before it on its plane, then suspend_ns, takes tR, and everything
 * else booked on the die ends later by suspend_ns + tR (docs/vssd.md "The clock"). */
uint64_t timing_host_read(struct timing *t, enum nand_mode mode, uint32_t die, uint32_t block,
			  uint32_t bytes, uint64_t ready_ns);

/* The retry time (read_retry_ns) of the reads booked since the last call
 * if any of them retried, else 0; and starts over. A command's reads run
 * in parallel, so one retry delays it by the retry's time. */
uint64_t timing_take_retry(struct timing *t);

/* The host side of a command submitted at submit_ns that moves bytes over
 * the link. A read's data goes out once its NAND reads are done
 * (nand_done_ns): returns the completion. A write's data comes in first:
 * timing_write_in returns when it is in the controller, and
 * timing_write_ack when the command completes: at once when the write
 * buffer has room for it, else when enough earlier programs have drained
 * (timing_write_drained) to make room. */
/* When the command's NAND work can start: the controller takes commands
 * at commands_per_ns, one after another, in the order they arrive from
 * all queues (with equal queues, round-robin's order), then with queue_ns
 * set the command waits until its queue takes the next (queue_ns after
 * the last), and each adds command_ns of latency (its cores work in
 * parallel: the latency is not a rate). */
uint64_t timing_command_start(struct timing *t, uint32_t queue, uint64_t submit_ns);
uint64_t timing_read_out(struct timing *t, uint64_t bytes, uint64_t nand_done_ns);
uint64_t timing_write_in(struct timing *t, uint64_t bytes, uint64_t start_ns);
/* When a write whose data crossed the link by in_ns, on submission queue
 * queue, is in the controller once its queue's write rate
 * (queue_write_bytes_per_ns), then the buffer's intake
 * (write_intake_bytes_per_ns), allow: in_ns when both are off. */
uint64_t timing_queue_write(struct timing *t, uint32_t queue, uint64_t bytes, uint64_t in_ns);

/* A write as it reaches the write buffer: its size, when its command
 * started (timing_command_start), when its data is in (timing_write_in,
 * timing_queue_write), and whether it leaves part of a mapping unit (a
 * partial write, merged in the buffer). */
struct write_arrival {
	uint64_t bytes, start_ns, in_ns;
	bool partial;
};

uint64_t timing_write_ack(struct timing *t, const struct write_arrival *w);
/* bytes of buffered writes leave the buffer at done_ns (their program). */
void timing_write_drained(struct timing *t, uint64_t bytes, uint64_t done_ns);

/* Totals for tests and the drive snapshot. */
struct timing_stats {
	uint64_t nand_ops[3];
	uint64_t suspends;         /* host reads that suspended other work */
	uint64_t read_retries;     /* reads that took read_retry_ns more */
	uint64_t die_busy_ns;      /* summed over dies */
	uint64_t link_bytes;
};
void timing_get_stats(const struct timing *t, struct timing_stats *s);

#endif
