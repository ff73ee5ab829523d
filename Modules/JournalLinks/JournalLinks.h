// How many names the journal file still has, asked with statx(2) for the link count alone.
// Swift's Glibc module does not declare statx (it needs _GNU_SOURCE), so the system call is
// made here, header only, as JournalChecksum's functions are.
//
// Why not fstat(2): it asks for the timestamps too, and on a kernel with fine-grained
// ("multigrain") timestamps (Linux 6.13+) a file whose times were asked for gets a new mtime on
// its next write, which dirties its inode; an fdatasync then writes the inode as well as the
// data. Under `--sync always` the journal looks for its file before every batch, so each sync
// wrote the inode: on this VM's ext4, 4 KB overwritten and synced took 182–213 µs after an
// fstat, 115–136 µs after this call or none.
#ifndef JOURNAL_LINKS_H
#define JOURNAL_LINKS_H

#include <linux/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// linux/fcntl.h has it, but its other definitions clash with glibc's (in Swift's Glibc module).
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/// The number of hard links of the file open as `fd` (0 once it is deleted), or -1 with errno
/// set when it cannot be asked.
static inline long journal_link_count(int fd) {
  struct statx status;
  if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_NLINK, &status) != 0) return -1;
  return (long)status.stx_nlink;
}

#endif
