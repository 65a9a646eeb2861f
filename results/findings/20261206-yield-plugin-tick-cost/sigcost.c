#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
static volatile unsigned long n;
static void h(int s){(void)s;}
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  long per=atol(argv[1]); /* us, 0 = none */
  if(per){struct sigaction sa={0};sa.sa_handler=h;sigaction(SIGRTMIN,&sa,0);
  struct sigevent ev={0};ev.sigev_notify=SIGEV_THREAD_ID;ev.sigev_signo=SIGRTMIN;ev._sigev_un._tid=syscall(SYS_gettid);
  timer_t t;timer_create(CLOCK_MONOTONIC,&ev,&t);struct itimerspec its={{0,per*1000},{0,per*1000}};timer_settime(t,0,&its,0);}
  double t0=now();unsigned long i=0;while(now()-t0<2){for(int k=0;k<10000;k++)n++;i++;}
  printf("period %ld us: %.0f Mloops/s\n",per,i*1e4/2/1e6);}
