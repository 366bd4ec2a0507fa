-- Lazy SmallCheck 0.6 (Debian's libghc-lazysmallcheck-dev) on the workloads of
-- `../Target.thy`, in Target's setting: at each depth, in increasing order, the first
-- ENOUGH inputs that meet the premise (or all there are), at most SECONDS per depth.
-- Built and run by `analysis/benches/targeted.rs`:
--
--   lsc-target WORKLOAD MAX_DEPTH SECONDS ENOUGH
--
-- prints one line per depth: `depth D <completed|enough|timeout> SECONDS PASSED`, and
-- stops after the first depth that times out. WORKLOAD is sorted, rbt or wbt.
--
-- Depth is Lazy SmallCheck's: a list of depth d has at most d elements, a tree at most d
-- levels; a constructor's fields are one level deeper, and an Int at depth d is one of
-- -d..d (LSC's own instance), a stored size one of 0..d.
--
-- "Meets the premise" is counted when the conclusion has been decided on a (partial)
-- input whose premise held: once per input Lazy SmallCheck tests to the end, as hol's
-- testers count their cases, partial ones included for narrowing.
module Main where

import Control.Exception
import Data.IORef
import GHC.Clock (getMonotonicTime)
import System.Environment (getArgs)
import System.IO
import System.IO.Unsafe (unsafePerformIO)
import System.Timeout (timeout)
import Test.LazySmallCheck
import Text.Printf (printf)

-- ------------------------------------------------------------------ counting

data Enough = Enough deriving Show
instance Exception Enough

passed :: IORef Int
passed = unsafePerformIO (newIORef 0)
{-# NOINLINE passed #-}

limit :: IORef Int
limit = unsafePerformIO (newIORef maxBound)
{-# NOINLINE limit #-}

-- | The conclusion, counted once decided; Enough once the limit is reached.
counted :: Bool -> Bool
counted b = unsafePerformIO $ do
  r <- evaluate b
  n <- atomicModifyIORef' passed (\k -> (k + 1, k + 1))
  l <- readIORef limit
  if n >= l then throwIO Enough else return r
{-# NOINLINE counted #-}

-- ------------------------------------------------------------------ sorted lists

sorted :: [Int] -> Bool
sorted (x : y : zs) = x <= y && sorted (y : zs)
sorted _ = True

insort :: Int -> [Int] -> [Int]
insort x [] = [x]
insort x (y : ys) = if x <= y then x : y : ys else y : insort x ys

propSorted :: Int -> [Int] -> Bool
propSorted x xs = sorted xs ==> counted (sorted (insort x xs))

-- ------------------------------------------------------------------ red-black trees

data Color = R | B deriving (Eq, Show)
data RBT = E | T Color RBT Int RBT deriving (Eq, Show)

instance Serial Color where
  series = cons0 R \/ cons0 B

instance Serial RBT where
  series = cons0 E \/ cons4 T

color :: RBT -> Color
color E = B
color (T c _ _ _) = c

rbRed :: RBT -> Bool
rbRed E = True
rbRed (T c l _ r) = rbRed l && rbRed r && (c /= R || (color l == B && color r == B))

bheight :: RBT -> Int
bheight E = 0
bheight (T c l _ _) = bheight l + (if c == R then 0 else 1)

rbBlack :: RBT -> Bool
rbBlack E = True
rbBlack (T _ l _ r) = rbBlack l && rbBlack r && bheight l == bheight r

rbKeys :: RBT -> [Int]
rbKeys E = []
rbKeys (T _ l x r) = rbKeys l ++ [x] ++ rbKeys r

rbOrdered :: RBT -> Bool
rbOrdered E = True
rbOrdered (T _ l x r) =
  rbOrdered l && rbOrdered r && all (< x) (rbKeys l) && all (x <) (rbKeys r)

isRBT :: RBT -> Bool
isRBT t = rbOrdered t && rbRed t && rbBlack t

balance :: Color -> RBT -> Int -> RBT -> RBT
balance B (T R (T R a x b) y c) z d = T R (T B a x b) y (T B c z d)
balance B (T R a x (T R b y c)) z d = T R (T B a x b) y (T B c z d)
balance B a x (T R (T R b y c) z d) = T R (T B a x b) y (T B c z d)
balance B a x (T R b y (T R c z d)) = T R (T B a x b) y (T B c z d)
balance c a x b = T c a x b

rbIns :: Int -> RBT -> RBT
rbIns x E = T R E x E
rbIns x (T c a y b)
  | x < y = balance c (rbIns x a) y b
  | y < x = balance c a y (rbIns x b)
  | otherwise = T c a y b

rbAdd :: Int -> RBT -> RBT
rbAdd x t = case rbIns x t of
  E -> E
  T _ a y b -> T B a y b

propRBT :: Int -> RBT -> Bool
propRBT x t = isRBT t ==> counted (isRBT (rbAdd x t))

-- ------------------------------------------------------------------ weight-balanced trees

newtype Size = Size Int deriving (Eq, Show)

instance Serial Size where
  series d = drawnFrom (map Size [0 .. d])

data WBT = Tip | Bin Size Int WBT WBT deriving (Eq, Show)

instance Serial WBT where
  series = cons0 Tip \/ cons4 Bin

size :: WBT -> Int
size Tip = 0
size (Bin (Size n) _ _ _) = n

bin :: Int -> WBT -> WBT -> WBT
bin k l r = Bin (Size (size l + size r + 1)) k l r

wbKeys :: WBT -> [Int]
wbKeys Tip = []
wbKeys (Bin _ k l r) = wbKeys l ++ [k] ++ wbKeys r

wbOrdered :: WBT -> Bool
wbOrdered Tip = True
wbOrdered (Bin _ k l r) =
  wbOrdered l && wbOrdered r && all (< k) (wbKeys l) && all (k <) (wbKeys r)

wbBalanced :: WBT -> Bool
wbBalanced Tip = True
wbBalanced (Bin _ _ l r) =
  wbBalanced l && wbBalanced r
    && (size l + size r <= 1 || (size l <= 3 * size r && size r <= 3 * size l))

wbSizes :: WBT -> Bool
wbSizes Tip = True
wbSizes (Bin (Size n) _ l r) = wbSizes l && wbSizes r && n == size l + size r + 1

wbValid :: WBT -> Bool
wbValid t = wbOrdered t && wbBalanced t && wbSizes t

singleL, singleR, doubleL, doubleR, rotateL, rotateR, wbBalance :: Int -> WBT -> WBT -> WBT
singleL k1 t1 (Bin _ k2 t2 t3) = bin k2 (bin k1 t1 t2) t3
singleL _ _ Tip = error "singleL"
singleR k1 (Bin _ k2 t1 t2) t3 = bin k2 t1 (bin k1 t2 t3)
singleR _ Tip _ = error "singleR"
doubleL k1 t1 (Bin _ k2 (Bin _ k3 t2 t3) t4) = bin k3 (bin k1 t1 t2) (bin k2 t3 t4)
doubleL _ _ _ = error "doubleL"
doubleR k1 (Bin _ k2 t1 (Bin _ k3 t2 t3)) t4 = bin k3 (bin k2 t1 t2) (bin k1 t3 t4)
doubleR _ _ _ = error "doubleR"
rotateL k l r@(Bin _ _ ly ry)
  | size ly < 2 * size ry = singleL k l r
  | otherwise = doubleL k l r
rotateL _ _ Tip = error "rotateL"
rotateR k l@(Bin _ _ ly ry) r
  | size ry < 2 * size ly = singleR k l r
  | otherwise = doubleR k l r
rotateR _ Tip _ = error "rotateR"
wbBalance k l r
  | size l + size r <= 1 = bin k l r
  | 3 * size l < size r = rotateL k l r
  | 3 * size r < size l = rotateR k l r
  | otherwise = bin k l r

wbMin, wbMax :: WBT -> Int
wbMin (Bin _ k Tip _) = k
wbMin (Bin _ _ l _) = wbMin l
wbMin Tip = error "wbMin"
wbMax (Bin _ k _ Tip) = k
wbMax (Bin _ _ _ r) = wbMax r
wbMax Tip = error "wbMax"

deleteMin, deleteMax :: WBT -> WBT
deleteMin Tip = Tip
deleteMin (Bin _ _ Tip r) = r
deleteMin (Bin _ k l r) = wbBalance k (deleteMin l) r
deleteMax Tip = Tip
deleteMax (Bin _ _ l Tip) = l
deleteMax (Bin _ k l r) = wbBalance k l (deleteMax r)

glue :: WBT -> WBT -> WBT
glue Tip r = r
glue l Tip = l
glue l r
  | size r < size l = wbBalance (wbMax l) (deleteMax l) r
  | otherwise = wbBalance (wbMin r) l (deleteMin r)

wbDelete :: Int -> WBT -> WBT
wbDelete _ Tip = Tip
wbDelete x (Bin _ k l r)
  | x < k = wbBalance k (wbDelete x l) r
  | k < x = wbBalance k l (wbDelete x r)
  | otherwise = glue l r

propWBT :: Int -> WBT -> Bool
propWBT x t =
  wbValid t ==> counted (let t' = wbDelete x t in wbValid t' && wbKeys t' == filter (/= x) (wbKeys t))

-- ------------------------------------------------------------------ driver

main :: IO ()
main = do
  [w, maxD, secs, enough] <- getArgs
  hSetBuffering stdout LineBuffering
  writeIORef limit (read enough)
  let check :: Int -> IO ()
      check d = case w of
        "sorted" -> depthCheck d propSorted
        "rbt" -> depthCheck d propRBT
        "wbt" -> depthCheck d propWBT
        _ -> error "the workload is sorted, rbt or wbt"
      go d
        | d > read maxD = return ()
        | otherwise = do
            writeIORef passed 0
            t0 <- getMonotonicTime
            r <- timeout (read secs * 1000000) (try (check d))
            t1 <- getMonotonicTime
            n <- readIORef passed
            let how = case r of
                  Nothing -> "timeout"
                  Just (Left Enough) -> "enough"
                  Just (Right ()) -> "completed"
            printf "depth %d %s %.6f %d\n" d (how :: String) (t1 - t0) n
            if how == "timeout" then return () else go (d + 1)
  go 1
