#define _GNU_SOURCE /* fopencookie */
#include "datafile.h"

#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

enum { INPUT_SIZE = 1 << 16 };

struct DataFile {
    FILE *raw;    /* the file as stored */
    FILE *stream; /* what readers see */
    bool xz;
    bool input_done; /* raw is exhausted */
    bool finished;   /* the xz stream ended properly */
    lzma_stream lz;
    uint8_t input[INPUT_SIZE];
    size_t input_pos, input_len;
    char path[512];
    char error[160]; /* set when the text ended on an error */
};

static const uint8_t XZ_MAGIC[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

static bool fill_input(DataFile *d)
{
    if (d->input_done)
        return false;
    d->input_pos = 0;
    d->input_len = fread(d->input, 1, sizeof d->input, d->raw);
    if (d->input_len == 0) {
        d->input_done = true;
        if (ferror(d->raw))
            snprintf(d->error, sizeof d->error, "read error: %s", strerror(errno));
        return false;
    }
    return true;
}

static const char *lzma_message(lzma_ret r)
{
    switch (r) {
    case LZMA_MEM_ERROR: return "out of memory while decompressing";
    case LZMA_MEMLIMIT_ERROR: return "the xz data needs more memory than allowed";
    case LZMA_FORMAT_ERROR: return "not xz data";
    case LZMA_OPTIONS_ERROR: return "unsupported xz options";
    case LZMA_DATA_ERROR: return "corrupt xz data";
    case LZMA_BUF_ERROR: return "truncated xz data (the file ends inside the compressed stream)";
    default: return "xz decompression failed";
    }
}

static ssize_t read_plain(DataFile *d, char *buf, size_t size)
{
    if (d->input_pos == d->input_len && !fill_input(d))
        return d->error[0] ? -1 : 0;
    size_t n = d->input_len - d->input_pos;
    if (n > size)
        n = size;
    memcpy(buf, d->input + d->input_pos, n);
    d->input_pos += n;
    return (ssize_t)n;
}

static ssize_t read_xz(DataFile *d, char *buf, size_t size)
{
    if (d->finished || d->error[0])
        return d->error[0] ? -1 : 0;
    d->lz.next_out = (uint8_t *)buf;
    d->lz.avail_out = size;
    while (d->lz.avail_out == size) {
        if (d->lz.avail_in == 0 && !d->input_done) {
            fill_input(d);
            if (d->error[0])
                return -1;
            d->lz.next_in = d->input;
            d->lz.avail_in = d->input_len;
        }
        lzma_ret r = lzma_code(&d->lz, d->input_done ? LZMA_FINISH : LZMA_RUN);
        if (r == LZMA_STREAM_END) {
            d->finished = true;
            break;
        }
        if (r != LZMA_OK) {
            snprintf(d->error, sizeof d->error, "%s", lzma_message(r));
            break;
        }
    }
    size_t n = size - d->lz.avail_out;
    if (n == 0 && d->error[0])
        return -1;
    return (ssize_t)n;
}

static ssize_t cookie_read(void *cookie, char *buf, size_t size)
{
    DataFile *d = cookie;
    return d->xz ? read_xz(d, buf, size) : read_plain(d, buf, size);
}

static int cookie_close(void *cookie)
{
    (void)cookie; /* datafile_close frees everything after fclose */
    return 0;
}

DataFile *datafile_open(const char *path, char *err, size_t err_size)
{
    DataFile *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, err_size, "cannot open '%s': out of memory", path);
        return NULL;
    }
    snprintf(d->path, sizeof d->path, "%s", path);
    d->raw = fopen(path, "rb");
    if (!d->raw) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        free(d);
        return NULL;
    }
    /* A directory opens but cannot be read: say so now rather than as an empty file. */
    fill_input(d);
    if (d->error[0]) {
        snprintf(err, err_size, "cannot open '%s': %s", path, d->error + strlen("read error: "));
        fclose(d->raw);
        free(d);
        return NULL;
    }
    d->xz = d->input_len >= sizeof XZ_MAGIC && memcmp(d->input, XZ_MAGIC, sizeof XZ_MAGIC) == 0;
    if (d->xz) {
        d->lz = (lzma_stream)LZMA_STREAM_INIT;
        lzma_ret r = lzma_stream_decoder(&d->lz, UINT64_MAX, LZMA_CONCATENATED);
        if (r != LZMA_OK) {
            snprintf(err, err_size, "cannot open '%s': %s", path, lzma_message(r));
            fclose(d->raw);
            free(d);
            return NULL;
        }
        d->lz.next_in = d->input;
        d->lz.avail_in = d->input_len;
    }
    d->stream = fopencookie(d, "r", (cookie_io_functions_t){.read = cookie_read, .close = cookie_close});
    if (!d->stream) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        if (d->xz)
            lzma_end(&d->lz);
        fclose(d->raw);
        free(d);
        return NULL;
    }
    return d;
}

FILE *datafile_stream(DataFile *file) { return file->stream; }

bool datafile_compressed(const DataFile *file) { return file->xz; }

bool datafile_close(DataFile *file, char *err, size_t err_size)
{
    if (!file)
        return true;
    fclose(file->stream);
    fclose(file->raw);
    if (file->xz)
        lzma_end(&file->lz);
    bool ok = file->error[0] == '\0';
    if (!ok && err)
        snprintf(err, err_size, "%s: %s", file->path, file->error);
    free(file);
    return ok;
}
