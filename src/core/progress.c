/* Progress line (see core/progress.h). Drawn with a carriage return and "erase to end of line"
 * (ANSI EL, ESC [ K), which every terminal catena is likely to meet understands. */
#include "core/progress.h"

void progress_start(struct progress *p, FILE *fp, long total, double now)
{
    *p = (struct progress){.fp = fp, .total = total, .start = now, .drawn = now, .unit = "step"};
}

void progress_duration(char *buf, size_t size, double seconds)
{
    if (!(seconds < 1e9)) { /* also NaN: no estimate yet */
        snprintf(buf, size, "?");
        return;
    }
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, size, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
    else if (s >= 60)
        snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, size, "%lds", s);
}

void progress_show(struct progress *p, double now, const char *text, int force)
{
    if (!force && now - p->drawn < PROGRESS_INTERVAL)
        return;
    fprintf(p->fp, "\r%s\033[K", text);
    fflush(p->fp);
    p->drawn = now;
    p->visible = 1;
}

void progress_update(struct progress *p, long step, double now)
{
    if (now - p->drawn < PROGRESS_INTERVAL)
        return;
    const double elapsed = now - p->start;
    const double rate = elapsed > 0 ? (double)step / elapsed : 0.0;
    const double percent = p->total > 0 ? 100.0 * (double)step / (double)p->total : 100.0;
    char left[32], line[256];
    progress_duration(left, sizeof left, rate > 0 ? (double)(p->total - step) / rate : 1e300);
    snprintf(line, sizeof line, "%s %ld/%ld (%.0f%%)  %.0f %ss/s  %s left", p->unit, step, p->total,
             percent, rate, p->unit, left);
    progress_show(p, now, line, 1);
}

void progress_end(struct progress *p)
{
    if (!p->visible)
        return;
    fputs("\r\033[K", p->fp);
    fflush(p->fp);
    p->visible = 0;
}
