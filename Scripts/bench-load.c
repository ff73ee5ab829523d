// bench-load: the load generator and process timer of Scripts/bench, which compiles it
// with gcc into a temporary directory. One program measures both servers, so neither
// gets a faster client than the other.
//
//   bench-load load SOCKET PROTOCOL CLIENTS PIPELINE SECONDS WARMUP
//     PROTOCOL: "redis" sends RESP `INCR k`; "stated" sends the JSON line
//     {"op":"send","feature":"counter","event":{"type":"increment"}}.
//     CLIENTS connections, each keeping PIPELINE requests in flight (a new request for
//     every reply), all driven by one thread with epoll, like redis-benchmark.
//     Replies are counted by their line ends; error replies (RESP "-", or a stated reply
//     that does not start with {"ok":true) are counted apart. A request's latency runs from
//     the moment it is queued for sending (a client sends a new one as soon as a reply
//     comes) to the end of its reply.
//     Prints: "<replies per second> <errors> <replies> <p50 µs> <p99 µs>" for the SECONDS
//     after WARMUP.
//
//   bench-load block SOCKET PROTOCOL CLIENTS SECONDS WARMUP [PID]
//     The same requests from CLIENTS connections, each driven by a thread of its own with
//     blocking calls and one request in flight: send, then wait in recv for the reply. No
//     epoll and no batching on the client side, so each round trip costs the client as
//     little as it can, and a fast server's one-client figure is not hidden by its client.
//     Prints the same five numbers as load.
//
//   With PID (load and block), a sixth number: the resident memory (VmRSS, KiB) of process
//   PID at the middle of the measured interval.
//
//   bench-load idle SOCKET PROTOCOL COUNT PID
//     Opens COUNT connections, sends one ping on each ("PING" to redis, {"op":"ping"} to
//     stated) and reads its reply, so the server has set every one of them up, then keeps
//     them open and idle. Raises its own descriptor limit as far as it may.
//     Prints: "<VmRSS KiB of PID before> <VmRSS KiB after> <bytes per connection>".
//
//   bench-load spawn RUNS WARMUP -- COMMAND_A ... -- COMMAND_B ...
//     Runs the two commands alternately (A B, then B A, ...) RUNS times each after
//     WARMUP untimed runs each, stdout and stderr to /dev/null, and times each whole
//     process (posix_spawn to waitpid).
//     Prints: "<median µs A> <mean µs A> <min µs A> <failures A> <median µs B> <mean µs B>
//     <min µs B> <failures B>".
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what) {
  perror(what);
  exit(2);
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// Resident memory of process `pid` in KiB (VmRSS), or -1 when it cannot be read.
static long rss_kib(const char *pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%s/status", pid);
  FILE *file = fopen(path, "r");
  if (!file) return -1;
  char line[256];
  long kib = -1;
  while (fgets(line, sizeof line, file)) {
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  }
  fclose(file);
  return kib;
}

// ---- load ----

static const char REDIS_REQUEST[] = "*2\r\n$4\r\nINCR\r\n$1\r\nk\r\n";
static const char STATED_REQUEST[] =
    "{\"op\":\"send\",\"feature\":\"counter\",\"event\":{\"type\":\"increment\"}}\n";
static const char STATED_OK[] = "{\"ok\":true";

struct client {
  int fd;
  size_t line_length;  // bytes of the current reply line seen so far
  char head[16];       // its first bytes, to tell errors
  char *out;           // requests not yet written
  size_t out_length;
  size_t out_capacity;
  int want_write;
  double *sent;        // when each request in flight was queued: a ring of PIPELINE slots
  long sent_head;      // the oldest request in flight
  long in_flight;
};

// Latency samples of the measured interval, in microseconds.
static double *samples;
static size_t sample_count, sample_capacity;
static long pipeline_depth;

static void record_latency(double microseconds) {
  if (sample_count == sample_capacity) {
    sample_capacity = sample_capacity ? sample_capacity * 2 : 65536;
    samples = realloc(samples, sample_capacity * sizeof *samples);
    if (!samples) {
      perror("realloc");
      exit(2);
    }
  }
  samples[sample_count++] = microseconds;
}

static const char *request;
static size_t request_length;
static int is_redis;

static void choose_protocol(const char *name) {
  is_redis = strcmp(name, "redis") == 0;
  if (!is_redis && strcmp(name, "stated") != 0) {
    fprintf(stderr, "bench-load: protocol must be redis or stated, got '%s'\n", name);
    exit(2);
  }
  request = is_redis ? REDIS_REQUEST : STATED_REQUEST;
  request_length = strlen(request);
}

// Whether a reply line (its first bytes `head`, `length` bytes in all) is an error: RESP "-",
// or a stated reply that does not start with {"ok":true.
static int is_error(const char *head, size_t length) {
  if (is_redis) return head[0] == '-';
  return length < sizeof STATED_OK || memcmp(head, STATED_OK, sizeof STATED_OK - 1) != 0;
}

static void report_error(const char *head) {
  fprintf(stderr, "bench-load: error reply: %.16s...\n", head);
}

static void print_result(double rate, long errors, long replies, const char *rss_pid, long rss);

static int connect_unix(const char *path, int nonblocking) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket");
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof address.sun_path) {
    fprintf(stderr, "bench-load: socket path too long: %s\n", path);
    exit(2);
  }
  strcpy(address.sun_path, path);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    fprintf(stderr, "bench-load: cannot connect to %s: %s\n", path, strerror(errno));
    exit(2);
  }
  if (nonblocking && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) die("fcntl");
  return fd;
}

static void update_interest(int epoll, struct client *c, int want_write) {
  if (c->want_write == want_write) return;
  struct epoll_event event = {.events = EPOLLIN | (want_write ? EPOLLOUT : 0), .data.ptr = c};
  if (epoll_ctl(epoll, EPOLL_CTL_MOD, c->fd, &event) != 0) die("epoll_ctl");
  c->want_write = want_write;
}

// Writes what is pending; keeps the rest for EPOLLOUT.
static void flush(int epoll, struct client *c) {
  size_t offset = 0;
  while (offset < c->out_length) {
    ssize_t n = send(c->fd, c->out + offset, c->out_length - offset, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      die("send");
    }
    offset += (size_t)n;
  }
  memmove(c->out, c->out + offset, c->out_length - offset);
  c->out_length -= offset;
  update_interest(epoll, c, c->out_length > 0);
}

static void queue_requests(struct client *c, long count) {
  double t = now();
  for (long i = 0; i < count; i++) {
    c->sent[(c->sent_head + c->in_flight) % pipeline_depth] = t;
    c->in_flight++;
  }
  size_t needed = c->out_length + (size_t)count * request_length;
  if (needed > c->out_capacity) {
    c->out_capacity = needed * 2;
    c->out = realloc(c->out, c->out_capacity);
    if (!c->out) die("realloc");
  }
  for (long i = 0; i < count; i++) {
    memcpy(c->out + c->out_length, request, request_length);
    c->out_length += request_length;
  }
}

static int load(int argc, char **argv) {
  if (argc != 8 && argc != 9) {
    fprintf(stderr,
            "usage: bench-load load SOCKET redis|stated CLIENTS PIPELINE SECONDS WARMUP [PID]\n");
    return 2;
  }
  const char *path = argv[2];
  choose_protocol(argv[3]);
  const char *rss_pid = argc == 9 ? argv[8] : NULL;
  long rss = -1;
  int clients = atoi(argv[4]);
  int pipeline = atoi(argv[5]);
  pipeline_depth = pipeline;
  double seconds = atof(argv[6]);
  double warmup = atof(argv[7]);
  if (clients < 1 || pipeline < 1 || seconds <= 0 || warmup < 0) {
    fprintf(stderr, "bench-load: bad numbers\n");
    return 2;
  }

  int epoll = epoll_create1(EPOLL_CLOEXEC);
  if (epoll < 0) die("epoll_create1");
  struct client *all = calloc((size_t)clients, sizeof *all);
  for (int i = 0; i < clients; i++) {
    struct client *c = &all[i];
    c->fd = connect_unix(path, 1);
    c->sent = calloc((size_t)pipeline, sizeof *c->sent);
    if (!c->sent) die("calloc");
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, c->fd, &event) != 0) die("epoll_ctl");
  }
  for (int i = 0; i < clients; i++) {
    queue_requests(&all[i], pipeline);
    flush(epoll, &all[i]);
  }

  long replies = 0, errors = 0, counted = 0, counted_errors = 0;
  double start = now();
  double measure_from = start + warmup;
  double measure_until = measure_from + seconds;
  int measuring = warmup == 0;
  char buffer[65536];
  struct epoll_event events[256];
  for (;;) {
    double t = now();
    if (!measuring && t >= measure_from) {
      measuring = 1;
      counted = 0;
      counted_errors = 0;
      sample_count = 0;
    }
    if (t >= measure_until) break;
    if (rss_pid && rss < 0 && t >= measure_from + seconds / 2) rss = rss_kib(rss_pid);
    int ready = epoll_wait(epoll, events, 256, 100);
    if (ready < 0) {
      if (errno == EINTR) continue;
      die("epoll_wait");
    }
    for (int e = 0; e < ready; e++) {
      struct client *c = events[e].data.ptr;
      if (events[e].events & EPOLLOUT) flush(epoll, c);
      if (!(events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
      long completed = 0;
      double received = now();
      for (;;) {
        ssize_t n = recv(c->fd, buffer, sizeof buffer, 0);
        if (n < 0) {
          if (errno == EINTR) continue;
          if (errno == EAGAIN) break;
          die("recv");
        }
        if (n == 0) {
          fprintf(stderr, "bench-load: the server closed a connection\n");
          return 1;
        }
        for (ssize_t i = 0; i < n; i++) {
          char byte = buffer[i];
          if (c->line_length < sizeof c->head) c->head[c->line_length] = byte;
          c->line_length++;
          if (byte != '\n') continue;
          int failed = is_error(c->head, c->line_length);
          if (failed && errors == 0) report_error(c->head);
          errors += failed;
          counted_errors += failed;
          c->line_length = 0;
          completed++;
          if (c->in_flight > 0) {
            if (measuring) record_latency((received - c->sent[c->sent_head]) * 1e6);
            c->sent_head = (c->sent_head + 1) % pipeline_depth;
            c->in_flight--;
          }
        }
        if (n < (ssize_t)sizeof buffer) break;
      }
      replies += completed;
      counted += completed;
      if (completed > 0) {
        queue_requests(c, completed);
        flush(epoll, c);
      }
    }
  }
  double elapsed = now() - measure_from;
  print_result((double)counted / elapsed, counted_errors, replies, rss_pid, rss);
  for (int i = 0; i < clients; i++) close(all[i].fd);
  return errors > 0 ? 1 : 0;
}

// Prints the line load and block end with (the latency samples sorted here).
static void print_result(double rate, long errors, long replies, const char *rss_pid, long rss) {
  double p50 = 0, p99 = 0;
  if (sample_count > 0) {
    qsort(samples, sample_count, sizeof *samples, compare);
    p50 = samples[(sample_count - 1) / 2];
    p99 = samples[(size_t)((double)(sample_count - 1) * 0.99)];
  }
  printf("%.0f %ld %ld %.1f %.1f", rate, errors, replies, p50, p99);
  if (rss_pid) printf(" %ld", rss);
  printf("\n");
}

// ---- block ----

// A blocking connection's received bytes not yet consumed.
struct reader {
  int fd;
  char buffer[4096];
  size_t buffered, used;
};

// Reads until the end of one reply line; returns whether it is an error reply.
static int read_reply(struct reader *r, char *head, size_t head_size) {
  size_t length = 0;
  for (;;) {
    if (r->used == r->buffered) {
      ssize_t n = recv(r->fd, r->buffer, sizeof r->buffer, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) die("recv");
      if (n == 0) {
        fprintf(stderr, "bench-load: the server closed a connection\n");
        exit(1);
      }
      r->buffered = (size_t)n;
      r->used = 0;
    }
    char byte = r->buffer[r->used++];
    if (length < head_size) head[length] = byte;
    length++;
    if (byte == '\n') return is_error(head, length);
  }
}

struct blocking_client {
  pthread_t thread;
  struct reader in;
  double measure_from, measure_until;
  double *samples;  // latencies in the measured interval, µs
  size_t sample_count, sample_capacity;
  long replies, counted, counted_errors;
};

static void *run_blocking_client(void *argument) {
  struct blocking_client *c = argument;
  char head[16];
  for (;;) {
    double sent = now();
    if (sent >= c->measure_until) break;
    size_t offset = 0;
    while (offset < request_length) {
      ssize_t n = send(c->in.fd, request + offset, request_length - offset, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) die("send");
      offset += (size_t)n;
    }
    int failed = read_reply(&c->in, head, sizeof head);
    double received = now();
    if (failed && c->counted_errors == 0) report_error(head);
    c->replies++;
    if (sent < c->measure_from) continue;
    c->counted++;
    c->counted_errors += failed;
    if (c->sample_count == c->sample_capacity) {
      c->sample_capacity = c->sample_capacity ? c->sample_capacity * 2 : 65536;
      c->samples = realloc(c->samples, c->sample_capacity * sizeof *c->samples);
      if (!c->samples) die("realloc");
    }
    c->samples[c->sample_count++] = (received - sent) * 1e6;
  }
  return NULL;
}

static int block(int argc, char **argv) {
  if (argc != 7 && argc != 8) {
    fprintf(stderr, "usage: bench-load block SOCKET redis|stated CLIENTS SECONDS WARMUP [PID]\n");
    return 2;
  }
  choose_protocol(argv[3]);
  int clients = atoi(argv[4]);
  double seconds = atof(argv[5]);
  double warmup = atof(argv[6]);
  const char *rss_pid = argc == 8 ? argv[7] : NULL;
  if (clients < 1 || seconds <= 0 || warmup < 0) {
    fprintf(stderr, "bench-load: bad numbers\n");
    return 2;
  }
  struct blocking_client *all = calloc((size_t)clients, sizeof *all);
  if (!all) die("calloc");
  for (int i = 0; i < clients; i++) all[i].in.fd = connect_unix(argv[2], 0);
  double measure_from = now() + warmup;
  for (int i = 0; i < clients; i++) {
    all[i].measure_from = measure_from;
    all[i].measure_until = measure_from + seconds;
    int failed = pthread_create(&all[i].thread, NULL, run_blocking_client, &all[i]);
    if (failed) {
      errno = failed;
      die("pthread_create");
    }
  }
  long rss = -1;
  if (rss_pid) {
    double middle = measure_from + seconds / 2;
    for (double t = now(); t < middle; t = now()) {
      double rest = middle - t;
      struct timespec pause = {.tv_sec = (time_t)rest, .tv_nsec = (long)((rest - (time_t)rest) * 1e9)};
      nanosleep(&pause, NULL);
    }
    rss = rss_kib(rss_pid);
  }
  long replies = 0, counted = 0, counted_errors = 0;
  for (int i = 0; i < clients; i++) {
    pthread_join(all[i].thread, NULL);
    struct blocking_client *c = &all[i];
    replies += c->replies;
    counted += c->counted;
    counted_errors += c->counted_errors;
    for (size_t k = 0; k < c->sample_count; k++) record_latency(c->samples[k]);
    free(c->samples);
    close(c->in.fd);
  }
  print_result((double)counted / seconds, counted_errors, replies, rss_pid, rss);
  return counted_errors > 0 ? 1 : 0;
}

// ---- idle ----

static int idle(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: bench-load idle SOCKET redis|stated COUNT PID\n");
    return 2;
  }
  int redis = strcmp(argv[3], "redis") == 0;
  choose_protocol(argv[3]);
  int count = atoi(argv[4]);
  const char *pid = argv[5];
  if (count < 1) {
    fprintf(stderr, "bench-load: COUNT must be at least 1\n");
    return 2;
  }
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (rlim_t)count + 16) {
    fprintf(stderr, "bench-load: %d connections need more descriptors than the limit of %lu\n",
            count, (unsigned long)limit.rlim_cur);
    return 2;
  }
  static const char REDIS_PING[] = "*1\r\n$4\r\nPING\r\n";
  static const char STATED_PING[] = "{\"op\":\"ping\"}\n";
  request = redis ? REDIS_PING : STATED_PING;
  request_length = strlen(request);
  long before = rss_kib(pid);
  int *fds = calloc((size_t)count, sizeof *fds);
  if (!fds) die("calloc");
  char head[16];
  for (int i = 0; i < count; i++) {
    struct reader in = {.fd = connect_unix(argv[2], 0)};
    fds[i] = in.fd;
    if (send(in.fd, request, request_length, MSG_NOSIGNAL) != (ssize_t)request_length) die("send");
    if (read_reply(&in, head, sizeof head)) {
      report_error(head);
      return 1;
    }
  }
  long after = rss_kib(pid);
  printf("%ld %ld %.0f\n", before, after, (double)(after - before) * 1024 / count);
  for (int i = 0; i < count; i++) close(fds[i]);
  return 0;
}

// ---- spawn ----

static double run_once(char **command, int *failed) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  double start = now();
  pid_t pid;
  int spawned = posix_spawn(&pid, command[0], &actions, NULL, command, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    fprintf(stderr, "bench-load: cannot run %s: %s\n", command[0], strerror(spawned));
    exit(2);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) die("waitpid");
  }
  double elapsed = now() - start;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) (*failed)++;
  return elapsed * 1e6;
}

static void summary(double *times, int runs, int failures) {
  qsort(times, (size_t)runs, sizeof *times, compare);
  double sum = 0;
  for (int i = 0; i < runs; i++) sum += times[i];
  double median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
  printf("%.0f %.0f %.0f %d", median, sum / runs, times[0], failures);
}

static int spawn(int argc, char **argv) {
  if (argc < 7 || strcmp(argv[4], "--") != 0) {
    fprintf(stderr, "usage: bench-load spawn RUNS WARMUP -- COMMAND_A ... -- COMMAND_B ...\n");
    return 2;
  }
  int runs = atoi(argv[2]);
  int warmup = atoi(argv[3]);
  char **a = &argv[5];
  int split = 5;
  while (split < argc && strcmp(argv[split], "--") != 0) split++;
  if (split >= argc - 1 || runs < 1) {
    fprintf(stderr, "bench-load: need two commands and RUNS >= 1\n");
    return 2;
  }
  argv[split] = NULL;
  char **b = &argv[split + 1];
  int failed_a = 0, failed_b = 0, ignored = 0;
  for (int i = 0; i < warmup; i++) {
    run_once(a, &ignored);
    run_once(b, &ignored);
  }
  double *times_a = calloc((size_t)runs, sizeof(double));
  double *times_b = calloc((size_t)runs, sizeof(double));
  for (int i = 0; i < runs; i++) {
    if (i % 2 == 0) {
      times_a[i] = run_once(a, &failed_a);
      times_b[i] = run_once(b, &failed_b);
    } else {
      times_b[i] = run_once(b, &failed_b);
      times_a[i] = run_once(a, &failed_a);
    }
  }
  summary(times_a, runs, failed_a);
  printf(" ");
  summary(times_b, runs, failed_b);
  printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "load") == 0) return load(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "block") == 0) return block(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "idle") == 0) return idle(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "spawn") == 0) return spawn(argc, argv);
  fprintf(stderr,
          "usage: bench-load load|block|idle|spawn ... (see the source's header)\n");
  return 2;
}
