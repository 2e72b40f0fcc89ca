/* The GPU's PCI BAR through the interposer (linked in directly, as under
 * LD_PRELOAD): the sysfs files libpciaccess reads, and CPU loads and
 * stores to a mapping of resource0 executed as register accesses.
 * Oracles: the PCI spec's BAR encoding, Linux's sysfs resource format,
 * Broadwell's 16 MiB GTTMMADR BAR, the render TIMESTAMP's 12.5 MHz rate
 * (BDW PRM: it counts every 80 ns) measured against CLOCK_MONOTONIC, the
 * values the test itself stores, and the x86 rule that a 32-bit load
 * clears the upper half of its 64-bit register. The instruction forms are
 * fixed with inline assembly. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>

#include "test.h"

#define PCI "/sys/bus/pci/devices/0000:00:02.0"
#define MIB (1u << 20)
#define RCS_TIMESTAMP 0x2358
#define BCS_TIMESTAMP 0x22358
#define SCRATCH 0x9400          /* a global register nothing else uses */
#define TIMESTAMP_HZ 12500000.0

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void check_pci_listing(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	CHECK(d != NULL);
	int devices = 0, ours = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		devices++;
		ours += !strcmp(e->d_name, "0000:00:02.0");
	}
	if (d)
		closedir(d);
	CHECK_EQ(devices, 1);
	CHECK_EQ(ours, 1);
}

struct bar { uint64_t base, last, flags; };

static void read_resources(struct bar bars[7])
{
	memset(bars, 0, 7 * sizeof(*bars));
	FILE *f = fopen(PCI "/resource", "r");
	CHECK(f != NULL);
	for (int i = 0; f && i < 7; i++) {
		unsigned long long b, l, fl;
		CHECK_EQ(fscanf(f, "%llx %llx %llx", &b, &l, &fl), 3);
		bars[i] = (struct bar){ b, l, fl };
	}
	if (f)
		fclose(f);
}

static void check_config_and_resources(void)
{
	struct bar bars[7];
	read_resources(bars);
	/* BAR 0: 16 MiB of 64-bit, non-prefetchable memory. */
	CHECK_EQ(bars[0].last - bars[0].base + 1, 16 * MIB);
	CHECK_EQ(bars[0].flags & 0xf, 0x4);
	CHECK(bars[0].flags & 0x200);                 /* IORESOURCE_MEM */
	/* BAR 2: the 256 MiB aperture, 64-bit prefetchable. */
	CHECK_EQ(bars[2].last - bars[2].base + 1, 256 * MIB);
	CHECK_EQ(bars[2].flags & 0xf, 0xc);
	/* BAR 4: I/O ports. */
	CHECK_EQ(bars[4].flags & 0x1, 0x1);
	CHECK(bars[4].flags & 0x100);                 /* IORESOURCE_IO */
	CHECK_EQ(bars[1].base | bars[3].base | bars[5].base | bars[6].base, 0);

	/* Config space agrees: BARs at 0x10, 0x18, 0x20 (PCI spec 6.2.5.1). */
	uint8_t config[256];
	int fd = open(PCI "/config", O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ(pread(fd, config, sizeof(config), 0), 256);
	close(fd);
	uint32_t bar0 = config[0x10] | config[0x11] << 8 | config[0x12] << 16 |
			(uint32_t)config[0x13] << 24;
	uint32_t bar2 = config[0x18] | config[0x19] << 8 | config[0x1a] << 16 |
			(uint32_t)config[0x1b] << 24;
	uint32_t bar4 = config[0x20] | config[0x21] << 8;
	CHECK_EQ(bar0 & ~0xfu, bars[0].base);
	CHECK_EQ(bar0 & 0xf, 0x4);
	CHECK_EQ(bar2 & ~0xfu, bars[2].base);
	CHECK_EQ(bar2 & 0xf, 0xc);
	CHECK_EQ(bar4 & ~0x3u, bars[4].base);
	CHECK_EQ(bar4 & 1, 1);
	CHECK_EQ(config[0x4] & 0x2, 0x2);             /* memory space enabled */

	/* resource0 is as large as the BAR, as in sysfs. */
	struct stat st;
	CHECK_EQ(stat(PCI "/resource0", &st), 0);
	CHECK_EQ(st.st_size, 16 * MIB);
}

static volatile uint8_t *map_bar(size_t len, off_t off, int prot)
{
	int fd = open(PCI "/resource0", prot & PROT_WRITE ? O_RDWR : O_RDONLY);
	CHECK(fd >= 0);
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, off);
	close(fd);                                    /* the mapping stays */
	CHECK(p != MAP_FAILED);
	return p == MAP_FAILED ? NULL : p;
}

/* Fixed instruction forms. */
static uint32_t load_r13_r9d(volatile uint8_t *p)
{
	register volatile uint8_t *base __asm__("r13") = p;
	register uint64_t out __asm__("r9");
	__asm__ volatile("movl (%1), %k0" : "=r"(out) : "r"(base) : "memory");
	return (uint32_t)out;
}

static uint64_t load_disp32_q(volatile uint8_t *bar)
{
	uint64_t v;
	__asm__ volatile("movq 0x2358(%1), %0" : "=r"(v) : "r"(bar) : "memory");
	return v;
}

static uint64_t load_sib_keeps_upper_clear(volatile uint8_t *bar, uint64_t index)
{
	uint64_t v = ~0ull;
	__asm__ volatile("movl (%1,%2,4), %k0" : "+r"(v) : "r"(bar), "r"(index) : "memory");
	return v;
}

static void store_reg32(volatile uint8_t *p, uint32_t v)
{
	__asm__ volatile("movl %1, (%0)" : : "r"(p), "r"(v) : "memory");
}

static void store_reg64_r14(volatile uint8_t *p, uint64_t v)
{
	register uint64_t src __asm__("r14") = v;
	__asm__ volatile("movq %1, 8(%0)" : : "r"(p), "r"(src) : "memory");
}

static void store_imm32(volatile uint8_t *p)
{
	__asm__ volatile("movl $0x12345678, 4(%0)" : : "r"(p) : "memory");
}

static void store_imm64_minus2(volatile uint8_t *p)
{
	__asm__ volatile("movq $-2, (%0)" : : "r"(p) : "memory");
}

static uint32_t load_u8(volatile uint8_t *p)
{
	uint32_t v;
	__asm__ volatile("movzbl 2(%1), %0" : "=r"(v) : "r"(p) : "memory");
	return v;
}

static uint32_t load_u16(volatile uint8_t *p)
{
	uint32_t v;
	__asm__ volatile("movzwl 2(%1), %0" : "=r"(v) : "r"(p) : "memory");
	return v;
}

static void check_timestamp(volatile uint8_t *bar)
{
	double t0 = now_s();
	uint32_t a = load_r13_r9d(bar + RCS_TIMESTAMP);
	double t1 = now_s();
	usleep(20000);
	double t2 = now_s();
	uint32_t b = *(volatile uint32_t *)(bar + RCS_TIMESTAMP);
	double t3 = now_s();
	double ticks = (double)(uint32_t)(b - a);
	/* Between the two reads lie at least t2 - t1 and at most t3 - t0. */
	CHECK(ticks >= (t2 - t1) * TIMESTAMP_HZ - 2);
	CHECK(ticks <= (t3 - t0) * TIMESTAMP_HZ + 2);
	/* The blitter's TIMESTAMP (IGT gem_latency's) runs too. */
	uint32_t c = *(volatile uint32_t *)(bar + BCS_TIMESTAMP);
	usleep(1000);
	CHECK(*(volatile uint32_t *)(bar + BCS_TIMESTAMP) != c);

	/* A 64-bit load reads both halves: the device is seconds old. */
	uint64_t q = load_disp32_q(bar);
	CHECK_EQ(q >> 32, 0);
	CHECK((uint32_t)q - b < (uint32_t)(5 * TIMESTAMP_HZ));
	/* SIB addressing, and the 32-bit load clears bits 63:32. */
	uint64_t s = load_sib_keeps_upper_clear(bar, RCS_TIMESTAMP / 4);
	CHECK_EQ(s >> 32, 0);
	CHECK((uint32_t)s - (uint32_t)q < (uint32_t)TIMESTAMP_HZ);

	/* The kernel model's REG_READ of the same register lies in between
	 * two BAR reads. */
	int fd = open("/dev/dri/card0", O_RDWR);
	struct drm_i915_reg_read rr = { .offset = RCS_TIMESTAMP };
	uint32_t before = *(volatile uint32_t *)(bar + RCS_TIMESTAMP);
	CHECK_EQ(ioctl(fd, DRM_IOCTL_I915_REG_READ, &rr), 0);
	uint32_t after = *(volatile uint32_t *)(bar + RCS_TIMESTAMP);
	close(fd);
	CHECK((uint32_t)rr.val - before <= after - before);
}

static void check_stores(volatile uint8_t *bar)
{
	volatile uint8_t *r = bar + SCRATCH;
	store_reg32(r, 0xa1b2c3d4);
	CHECK_EQ(*(volatile uint32_t *)r, 0xa1b2c3d4);
	CHECK_EQ(load_u8(r), 0xb2);
	CHECK_EQ(load_u16(r), 0xa1b2);
	store_imm32(r);                               /* SCRATCH + 4 */
	CHECK_EQ(*(volatile uint64_t *)r, 0x12345678a1b2c3d4ull);
	store_reg64_r14(r, 0x0102030405060708ull);    /* SCRATCH + 8, + 12 */
	CHECK_EQ(*(volatile uint32_t *)(r + 8), 0x05060708);
	CHECK_EQ(*(volatile uint32_t *)(r + 12), 0x01020304);
	store_imm64_minus2(r);
	CHECK_EQ(*(volatile uint32_t *)r, 0xfffffffe);
	CHECK_EQ(*(volatile uint32_t *)(r + 4), 0xffffffff);
}

static sigjmp_buf fault_jmp;
static volatile uintptr_t fault_addr;
static volatile int fault_code;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_addr = (uintptr_t)si->si_addr;
	fault_code = si->si_code;
	siglongjmp(fault_jmp, 1);
}

static void lock_xadd(volatile uint8_t *p)
{
	uint32_t v = 1;
	__asm__ volatile("lock xaddl %0, (%1)" : "+r"(v) : "r"(p) : "memory");
}

/* An access the emulation does not take reaches the program's handler as
 * a SIGSEGV at the accessed address; true if it did. */
static bool faults(void (*access)(volatile uint8_t *), volatile uint8_t *p)
{
	fault_addr = 0;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		access(p);
		return false;
	}
	return fault_addr == (uintptr_t)p;
}

static void read32(volatile uint8_t *p)
{
	uint32_t v;   /* assembly: the unaligned case is no C access */
	__asm__ volatile("movl (%1), %0" : "=r"(v) : "r"(p) : "memory");
}
static void write32(volatile uint8_t *p) { store_reg32(p, 1); }

static void check_refused(volatile uint8_t *bar)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO }, old;
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGSEGV, &sa, &old), 0);

	/* Not a decoded form: reported on stderr (captured here), then the
	 * program's handler runs. */
	char tmpl[] = "/tmp/gtsim-bar-stderr-XXXXXX";
	int err = mkstemp(tmpl), saved = dup(2);
	unlink(tmpl);
	dup2(err, 2);
	CHECK(faults(lock_xadd, bar + RCS_TIMESTAMP));
	dup2(saved, 2);
	close(saved);
	char msg[512] = "";
	CHECK(pread(err, msg, sizeof(msg) - 1, 0) > 0);
	close(err);
	CHECK(strstr(msg, "not emulated") != NULL);
	CHECK(strstr(msg, "bytes f0 0f c1") != NULL);   /* lock xadd */
	CHECK(strstr(msg, "offset 0x2358") != NULL);

	/* The GGTT half is not modelled; unaligned register access. */
	volatile uint8_t *whole = map_bar(16 * MIB, 0, PROT_READ | PROT_WRITE);
	if (whole) {
		CHECK(faults(read32, whole + 8 * MIB));
		CHECK(faults(read32, whole + 2 * MIB));
		CHECK(faults(read32, whole + SCRATCH + 2));
		CHECK(*(volatile uint32_t *)(whole + 2 * MIB - 4) == 0);  /* last register */
		munmap((void *)whole, 16 * MIB);
	}
	/* A read-only mapping reads, but refuses stores. */
	volatile uint8_t *ro = map_bar(4096, 0x2000, PROT_READ);
	if (ro) {
		CHECK(*(volatile uint32_t *)(ro + 0x358) != 0);          /* TIMESTAMP */
		CHECK(faults(write32, ro + 0x358));
		/* Unmapped: an ordinary fault on unmapped memory. */
		munmap((void *)ro, 4096);
		CHECK(faults(read32, ro + 0x358));
		CHECK_EQ(fault_code, SEGV_MAPERR);
	}
	sigaction(SIGSEGV, &old, NULL);
}

static void check_map_rules(void)
{
	int fd = open(PCI "/resource0", O_RDWR);
	CHECK(fd >= 0);
	errno = 0;
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 16 * MIB) == MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
	CHECK(mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 16 * MIB - 4096) == MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 100) == MAP_FAILED);
	CHECK_EQ(errno, EINVAL);
	/* A window at BAR offset 0x22000: BCS's page. */
	volatile uint8_t *p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0x20000);
	close(fd);
	CHECK(p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	/* mprotect does not make it plain memory. */
	CHECK_EQ(mprotect((void *)p, 3 * 4096, PROT_READ | PROT_WRITE), 0);
	CHECK(*(volatile uint32_t *)(p + 0x2358) != 0);
	/* Unmapping the middle page keeps both ends. */
	CHECK_EQ(munmap((void *)(p + 4096), 4096), 0);
	store_reg32(p + 0x600, 0x5a5a);               /* 0x20600, first page */
	CHECK_EQ(*(volatile uint32_t *)(p + 0x600), 0x5a5a);
	uint32_t t = *(volatile uint32_t *)(p + 0x2358);
	usleep(1000);
	CHECK(*(volatile uint32_t *)(p + 0x2358) != t);
	munmap((void *)p, 3 * 4096);
}

/* A child of fork() keeps the mapping, on its parent's device (through
 * the parent's server, GTSIM_WIRE_MMIO; with GTSIM_FORK_SHARE=0 on its
 * copy of the device), and may map the BAR anew; with no
 * handler of its own, an access that is not emulated kills it as SIGSEGV
 * (ASan's handler, when there is one, reports it, then exits or aborts). */
static void check_fork(volatile uint8_t *bar)
{
	pid_t pid = fork();
	if (pid == 0) {
		uint32_t a = *(volatile uint32_t *)(bar + RCS_TIMESTAMP);
		usleep(1000);
		_exit(*(volatile uint32_t *)(bar + RCS_TIMESTAMP) != a ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* A mapping the child makes reaches the same registers: its store
	 * is what the parent loads. */
	pid = fork();
	if (pid == 0) {
		int fd = open(PCI "/resource0", O_RDWR);
		volatile uint8_t *own = mmap(NULL, 2 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (own == MAP_FAILED)
			_exit(1);
		*(volatile uint32_t *)(own + SCRATCH + 16) = 0xc0de0f0c;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(*(volatile uint32_t *)(bar + SCRATCH + 16), 0xc0de0f0c);

	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		lock_xadd(bar + RCS_TIMESTAMP);
		_exit(0);
	}
	waitpid(pid, &status, 0);
#ifdef __SANITIZE_ADDRESS__
	/* ASan's report ends in exit(1) or, with abort_on_error, SIGABRT. */
	CHECK((WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV ||
				       WTERMSIG(status) == SIGABRT)) ||
	      (WIFEXITED(status) && WEXITSTATUS(status) != 0));
	if (!WIFSIGNALED(status) && !(WIFEXITED(status) && WEXITSTATUS(status)))
		fprintf(stderr, "child status 0x%x\n", status);
#else
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
#endif
}

int main(void)
{
	check_pci_listing();
	check_config_and_resources();
	volatile uint8_t *bar = map_bar(2 * MIB, 0, PROT_READ | PROT_WRITE);
	if (!bar)
		return test_exit();
	check_timestamp(bar);
	check_stores(bar);
	check_map_rules();
	check_refused(bar);
	check_fork(bar);
	return test_exit();
}
