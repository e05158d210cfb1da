/*
 * Which page a client reads next: uniform, or zipf-ranked (Gray et al.,
 * "Quickly generating billion-record synthetic databases", as YCSB uses
 * it) and scattered over the file; each client's sequence is fixed by the
 * seed alone (ct_oltp_page_seq() shows it to the tests), whatever the
 * timing does to the rest of the engine.
 */
#include "engine.h"
#include "contend/util.h"

#include <math.h>
#include <string.h>

double eng_unit_rand(uint64_t *st)
{
	return (double)(ct_rand64(st) >> 11) * 0x1.0p-53;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

void eng_zipf_init(struct eng_zipf *z, uint64_t npages, double theta)
{
	double n = (double)npages, th = theta;

	*z = (struct eng_zipf){ .npages = npages, .theta = theta };
	z->scramble = 0x9e3779b97f4a7c15ULL % npages;
	if (!z->scramble)
		z->scramble = 1;
	while (gcd64(z->scramble, npages) != 1)
		z->scramble++;
	if (th <= 0)
		return;
	z->zetan = 0;
	for (uint64_t i = 1; i <= npages; i++)
		z->zetan += 1.0 / pow((double)i, th);
	z->zeta2 = 1.0 + pow(0.5, th);
	z->alpha = 1.0 / (1.0 - th);
	z->eta = (1.0 - pow(2.0 / n, 1.0 - th)) / (1.0 - z->zeta2 / z->zetan);
}

/* The next page a client reads: uniform, or zipf-ranked and scattered over
 * the file by a multiplicative permutation so hot pages are not adjacent. */
uint64_t eng_zipf_pick(const struct eng_zipf *z, uint64_t *rng)
{
	uint64_t rank;
	double u, uz;

	if (z->theta <= 0)
		return ct_rand64(rng) % z->npages;
	u = eng_unit_rand(rng);
	uz = u * z->zetan;
	if (uz < 1.0)
		rank = 0;
	else if (uz < z->zeta2)
		rank = 1;
	else
		rank = (uint64_t)((double)z->npages * pow(z->eta * u - z->eta + 1.0, z->alpha));
	if (rank >= z->npages)
		rank = z->npages - 1;
	return (uint64_t)(((unsigned __int128)rank * z->scramble) % z->npages);
}

uint64_t eng_client_seed(uint64_t seed, unsigned idx)
{
	uint64_t s = seed ^ (0x9e3779b97f4a7c15ULL * (idx + 1));

	(void)ct_rand64(&s);
	return s ? s : 1;
}

void ct_oltp_page_seq(const struct ct_oltp_params *p, unsigned client, uint64_t *out, size_t n)
{
	struct eng_zipf z;
	uint64_t rng = eng_client_seed(p->seed, client);

	eng_zipf_init(&z, p->npages, p->zipf);
	for (size_t i = 0; i < n; i++)
		out[i] = eng_zipf_pick(&z, &rng);
}
