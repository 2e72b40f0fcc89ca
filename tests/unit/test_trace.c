#include "common/devinfo.h"
#include "common/trace.h"
#include "test.h"

int main(void)
{
	CHECK_EQ(trace_set("gem,batch"), 0);
	CHECK(trace_on(TRACE_GEM));
	CHECK(trace_on(TRACE_BATCH));
	CHECK(!trace_on(TRACE_EU));
	CHECK_EQ(trace_set("nonsense"), -1);
	CHECK(!trace_on(TRACE_GEM));
	CHECK_EQ(trace_set("all"), 0);
	CHECK(trace_on(TRACE_STUB) && trace_on(TRACE_EU));
	trace_set("");

	const struct gt_devinfo *bdw = devinfo_lookup("bdw");
	CHECK(bdw != NULL);
	CHECK_EQ(bdw->pci_device, 0x1616);
	CHECK_EQ(bdw->gen, 8);
	CHECK(devinfo_lookup("skl")->gen == 9);
	CHECK(devinfo_lookup("xyz") == NULL);
	return test_exit();
}
