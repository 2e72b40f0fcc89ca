/* Blitter (BCS) commands, written from the BDW/SKL PRM vol. 2a "XY_*"
 * command pages (genxml has no blitter commands). Included by the gen8 and
 * gen9 tables; BLT_CMDS_GENn expands to their cmd_desc entries.
 * Header: Command Type 2 (bits 31:29), opcode bits 28:22, DWord Length
 * bits 7:0 with bias 2. Gen8+ addresses are 48 bits over two dwords. */
#ifndef GTSIM_CMD_BLT_CMDS_H
#define GTSIM_CMD_BLT_CMDS_H

static const struct cmd_value blt_color_depth[] = {
	{ 0, "8 bit" }, { 1, "565" }, { 2, "1555" }, { 3, "32 bit" },
};

#define BLT_HEADER(opcode_)                                                  \
	{ "DWord Length", 0, 7, CMD_T_UINT, 0, 0, 0, 0, 0, 0, NULL, NULL },  \
	{ "Instruction Target/Opcode", 22, 28, CMD_T_UINT, 0, 0, 0, 0, 0, 0, NULL, NULL }, \
	{ "Client", 29, 31, CMD_T_UINT, 0, 0, 0, 0, 0, 0, NULL, NULL }

#define BLT_FIELD(name_, start_, end_, type_)                                \
	{ name_, start_, end_, type_, 0, 0, 0, 0, 0, 0, NULL, NULL }

static const struct cmd_field blt_f_XY_SETUP_BLT[] = {
	BLT_HEADER(0x01),
	BLT_FIELD("Destination Tiling Enable", 11, 11, CMD_T_BOOL),
	BLT_FIELD("32bpp Byte Mask", 20, 21, CMD_T_UINT),
	BLT_FIELD("Destination Pitch", 32, 47, CMD_T_INT),
	BLT_FIELD("Raster Operation", 48, 55, CMD_T_UINT),
	{ "Color Depth", 56, 57, CMD_T_ENUM, 0, 0, 0, 0, 0, 4, blt_color_depth, NULL },
	BLT_FIELD("Mono Source Transparency Mode", 61, 61, CMD_T_BOOL),
	BLT_FIELD("Clipping Enabled", 62, 62, CMD_T_BOOL),
	BLT_FIELD("Clip Rect Y1", 80, 95, CMD_T_UINT),
	BLT_FIELD("Clip Rect X1", 64, 79, CMD_T_UINT),
	BLT_FIELD("Clip Rect Y2", 112, 127, CMD_T_UINT),
	BLT_FIELD("Clip Rect X2", 96, 111, CMD_T_UINT),
	BLT_FIELD("Destination Base Address", 128, 191, CMD_T_ADDRESS),
	BLT_FIELD("Background Color", 192, 223, CMD_T_UINT),
	BLT_FIELD("Foreground Color", 224, 255, CMD_T_UINT),
	BLT_FIELD("Pattern Base Address", 256, 319, CMD_T_ADDRESS),
};

static const struct cmd_field blt_f_XY_COLOR_BLT[] = {
	BLT_HEADER(0x50),
	BLT_FIELD("Destination Tiling Enable", 11, 11, CMD_T_BOOL),
	BLT_FIELD("32bpp Byte Mask", 20, 21, CMD_T_UINT),
	BLT_FIELD("Destination Pitch", 32, 47, CMD_T_INT),
	BLT_FIELD("Raster Operation", 48, 55, CMD_T_UINT),
	{ "Color Depth", 56, 57, CMD_T_ENUM, 0, 0, 0, 0, 0, 4, blt_color_depth, NULL },
	BLT_FIELD("Clipping Enabled", 62, 62, CMD_T_BOOL),
	BLT_FIELD("Destination X1", 64, 79, CMD_T_INT),
	BLT_FIELD("Destination Y1", 80, 95, CMD_T_INT),
	BLT_FIELD("Destination X2", 96, 111, CMD_T_INT),
	BLT_FIELD("Destination Y2", 112, 127, CMD_T_INT),
	BLT_FIELD("Destination Base Address", 128, 191, CMD_T_ADDRESS),
	BLT_FIELD("Solid Pattern Color", 192, 223, CMD_T_UINT),
};

static const struct cmd_field blt_f_XY_SRC_COPY_BLT[] = {
	BLT_HEADER(0x53),
	BLT_FIELD("Destination Tiling Enable", 11, 11, CMD_T_BOOL),
	BLT_FIELD("Source Tiling Enable", 15, 15, CMD_T_BOOL),
	BLT_FIELD("32bpp Byte Mask", 20, 21, CMD_T_UINT),
	BLT_FIELD("Destination Pitch", 32, 47, CMD_T_INT),
	BLT_FIELD("Raster Operation", 48, 55, CMD_T_UINT),
	{ "Color Depth", 56, 57, CMD_T_ENUM, 0, 0, 0, 0, 0, 4, blt_color_depth, NULL },
	BLT_FIELD("Clipping Enabled", 62, 62, CMD_T_BOOL),
	BLT_FIELD("Destination X1", 64, 79, CMD_T_INT),
	BLT_FIELD("Destination Y1", 80, 95, CMD_T_INT),
	BLT_FIELD("Destination X2", 96, 111, CMD_T_INT),
	BLT_FIELD("Destination Y2", 112, 127, CMD_T_INT),
	BLT_FIELD("Destination Base Address", 128, 191, CMD_T_ADDRESS),
	BLT_FIELD("Source X1", 192, 207, CMD_T_INT),
	BLT_FIELD("Source Y1", 208, 223, CMD_T_INT),
	BLT_FIELD("Source Pitch", 224, 239, CMD_T_INT),
	BLT_FIELD("Source Base Address", 256, 319, CMD_T_ADDRESS),
};

static const struct cmd_field blt_f_XY_SETUP_CLIP_BLT[] = {
	BLT_HEADER(0x03),
	BLT_FIELD("Clip Rect X1", 32, 47, CMD_T_UINT),
	BLT_FIELD("Clip Rect Y1", 48, 63, CMD_T_UINT),
	BLT_FIELD("Clip Rect X2", 64, 79, CMD_T_UINT),
	BLT_FIELD("Clip Rect Y2", 80, 95, CMD_T_UINT),
};

__attribute__((unused)) static const struct cmd_value blt_fast_tiling[] = {
	{ 0, "Linear" }, { 1, "Tile-Y Legacy" }, { 2, "Tile-Y F" }, { 3, "Tile-Y S" },
};
__attribute__((unused)) static const struct cmd_value blt_fast_depth[] = {
	{ 0, "8 bit" }, { 1, "16 bit 565" }, { 2, "16 bit 1555" }, { 3, "32 bit" },
	{ 4, "64 bit" }, { 5, "128 bit" },
};

/* SKL: XY_FAST_COPY_BLT (gen9 only). */
__attribute__((unused)) static const struct cmd_field blt_f_XY_FAST_COPY_BLT[] = {
	BLT_HEADER(0x42),
	{ "Destination Tiling Method", 13, 14, CMD_T_ENUM, 0, 0, 0, 0, 0, 4, blt_fast_tiling, NULL },
	{ "Source Tiling Method", 20, 21, CMD_T_ENUM, 0, 0, 0, 0, 0, 4, blt_fast_tiling, NULL },
	BLT_FIELD("Destination Pitch", 32, 47, CMD_T_INT),
	{ "Color Depth", 56, 58, CMD_T_ENUM, 0, 0, 0, 0, 0, 6, blt_fast_depth, NULL },
	BLT_FIELD("Destination X1", 64, 79, CMD_T_UINT),
	BLT_FIELD("Destination Y1", 80, 95, CMD_T_UINT),
	BLT_FIELD("Destination X2", 96, 111, CMD_T_UINT),
	BLT_FIELD("Destination Y2", 112, 127, CMD_T_UINT),
	BLT_FIELD("Destination Base Address", 128, 191, CMD_T_ADDRESS),
	BLT_FIELD("Source X1", 192, 207, CMD_T_UINT),
	BLT_FIELD("Source Y1", 208, 223, CMD_T_UINT),
	BLT_FIELD("Source Pitch", 224, 239, CMD_T_INT),
	BLT_FIELD("Source Base Address", 256, 319, CMD_T_ADDRESS),
};

#define BLT_DESC(name_, opcode_, len_)                                       \
	{ .name = #name_, .match = 0x40000000u | (opcode_) << 22,            \
	  .mask = 0xffc00000u, .len_mask = 0xff, .bias = 2, .length = len_,  \
	  .engines = CMD_BCS, .priv = CMD_PRIV_NONE,                         \
	  .num_fields = sizeof(blt_f_##name_) / sizeof(blt_f_##name_[0]),    \
	  .fields = blt_f_##name_ }

#define BLT_CMDS_GEN8                                                        \
	BLT_DESC(XY_SETUP_BLT, 0x01, 10),                                    \
	BLT_DESC(XY_SETUP_CLIP_BLT, 0x03, 3),                                \
	BLT_DESC(XY_COLOR_BLT, 0x50, 7),                                     \
	BLT_DESC(XY_SRC_COPY_BLT, 0x53, 10),

#define BLT_CMDS_GEN9 BLT_CMDS_GEN8                                          \
	BLT_DESC(XY_FAST_COPY_BLT, 0x42, 10),

#endif
