/* Register and immediate data types: Gen8 hardware codes (PRM vol. 2a
 * "Register Type" / "Immediate Type" tables), sizes, Mesa's letters, and
 * the VF restricted float. */
#include <math.h>

#include "gpu/eu/isa.h"

static const struct {
	const char *letters;
	uint8_t size;
	int8_t reg_hw, imm_hw;
} types[EU_TYPE_NUM] = {
	[EU_TYPE_UD] = { "UD", 4, 0, 0 },
	[EU_TYPE_D] = { "D", 4, 1, 1 },
	[EU_TYPE_UW] = { "UW", 2, 2, 2 },
	[EU_TYPE_W] = { "W", 2, 3, 3 },
	[EU_TYPE_UB] = { "UB", 1, 4, -1 },
	[EU_TYPE_B] = { "B", 1, 5, -1 },
	[EU_TYPE_DF] = { "DF", 8, 6, 10 },
	[EU_TYPE_F] = { "F", 4, 7, 7 },
	[EU_TYPE_UQ] = { "UQ", 8, 8, 8 },
	[EU_TYPE_Q] = { "Q", 8, 9, 9 },
	[EU_TYPE_HF] = { "HF", 2, 10, 11 },
	[EU_TYPE_V] = { "V", 4, -1, 6 },
	[EU_TYPE_UV] = { "UV", 4, -1, 4 },
	[EU_TYPE_VF] = { "VF", 4, -1, 5 },
};

unsigned eu_type_size(unsigned type)
{
	return type < EU_TYPE_NUM ? types[type].size : 1;
}

const char *eu_type_letters(unsigned type)
{
	return type < EU_TYPE_NUM ? types[type].letters : "?";
}

int eu_type_to_hw(unsigned type, bool imm)
{
	if (type >= EU_TYPE_NUM)
		return -1;
	return imm ? types[type].imm_hw : types[type].reg_hw;
}

int eu_type_from_hw(unsigned hw, bool imm)
{
	for (unsigned t = 0; t < EU_TYPE_NUM; t++)
		if ((imm ? types[t].imm_hw : types[t].reg_hw) == (int)hw)
			return (int)t;
	return -1;
}

float eu_vf_to_float(uint8_t vf)
{
	unsigned exp = (vf >> 4) & 7, mant = vf & 15;
	float v;
	if (exp == 0 && mant == 0)
		v = 0.0f;
	else
		v = ldexpf(1.0f + mant / 16.0f, (int)exp - 3);
	return (vf & 0x80) ? -v : v;
}

int eu_float_to_vf(float f)
{
	for (int i = 0; i < 256; i++)
		if (eu_vf_to_float((uint8_t)i) == f && (signbit(f) != 0) == (i >> 7))
			return i;
	return -1;
}
